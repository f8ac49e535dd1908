import { setupServer } from 'msw/node';
import { createMockApi } from 'user-order-apikit/mocks';

export const mock = createMockApi({ baseUrl: 'http://localhost:5173', passwordIterations: 1000 });
export const server = setupServer(...mock.handlers);
