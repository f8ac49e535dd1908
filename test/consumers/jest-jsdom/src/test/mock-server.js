import { setupServer } from 'msw/node';
import { createMockApi } from 'user-order-apikit/mocks';

// No baseUrl: relative URLs are answered on jsdom's origin (http://localhost).
export const mock = createMockApi({ passwordIterations: 1000 });
export const server = setupServer(...mock.handlers);
