import { afterAll, afterEach, beforeAll } from 'vitest';
import { mock, server } from './mock-server';

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(async () => {
  server.resetHandlers();
  await mock.reset(); // seed data again, overrides cleared
});
afterAll(() => server.close());
