import { setupServer } from 'msw/node';
import { createMockApi } from 'user-order-apikit/mocks';

export const mock = createMockApi({ baseUrl: 'http://localhost', passwordIterations: 1000 });
export const server = setupServer(...mock.handlers);
