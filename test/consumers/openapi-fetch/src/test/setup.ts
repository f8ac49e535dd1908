import { afterAll, afterEach, beforeAll } from 'vitest';
import { unhandledRequests } from 'user-order-apikit/mocks';
import { mock, server } from './mock-server';

beforeAll(() => server.listen(unhandledRequests('error', mock)));
afterEach(async () => {
  server.resetHandlers();
  await mock.reset(); // seed data again, overrides cleared
});
afterAll(() => server.close());
