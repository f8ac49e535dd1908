// The README's setup for Node's own test runner: one mock API and one MSW server per test file
// (node --test runs each file in a process of its own), reset after every test.
import { after, afterEach, before } from 'node:test';
import { setupServer } from 'msw/node';
import { createMockApi, unhandledRequests } from 'user-order-apikit/mocks';

// No baseUrl: the handlers answer the API's paths on any origin.
export const mock = createMockApi({ passwordIterations: 1000 });
export const server = setupServer(...mock.handlers);

/** Registers the file's hooks: listen (an unhandled request fails), reset, close. */
export function useMockServer() {
  before(() => server.listen(unhandledRequests('error', mock)));
  afterEach(async () => {
    server.resetHandlers();
    await mock.reset(); // seed data again, overrides cleared
  });
  after(() => server.close());
}
