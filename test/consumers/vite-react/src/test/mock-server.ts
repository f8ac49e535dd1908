import { setupServer } from 'msw/node';
import { createMockApi } from 'user-order-apikit/mocks';

// No baseUrl: the app's relative URLs are answered whatever origin the test's page has.
export const mock = createMockApi({ passwordIterations: 1000 });
export const server = setupServer(...mock.handlers);
