import { unhandledRequests } from 'user-order-apikit/mocks';
import { mock, server } from './mock-server';

// msw 2 reads onUnhandledRequest, msw 3 onUnhandledFrame: this names both.
beforeAll(() => server.listen(unhandledRequests('error', mock)));
afterEach(async () => {
  server.resetHandlers();
  await mock.reset(); // seed data again, overrides cleared
});
afterAll(() => server.close());
