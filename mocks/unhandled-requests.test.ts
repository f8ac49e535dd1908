import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMockApi } from './create-mock-api.js';
import { unhandledRequests } from './unhandled-requests.js';

// The msw installed here is 2: it reads onUnhandledRequest. msw 3 reads onUnhandledFrame, proven
// by test/consumers/msw3-consumer.test.ts (decision 0101).
const mock = createMockApi({ baseUrl: 'http://api.test', auth: 'off' });
const server = setupServer(...mock.handlers);

beforeAll(() => server.listen(unhandledRequests('error')));
afterAll(() => server.close());

describe('unhandledRequests', () => {
  it('names the option as msw 2 and msw 3 read it', () => {
    expect(unhandledRequests('bypass')).toEqual({
      onUnhandledRequest: 'bypass',
      onUnhandledFrame: 'bypass',
    });
  });

  it('reaches msw 2: a request outside the API fails, the API is answered', async () => {
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    try {
      await expect(fetch('http://api.test/src/App.vue')).rejects.toThrow(
        /"error" strategy for the "onUnhandledRequest" option/,
      );
      expect(String(reported.mock.calls[0]?.[0])).toMatch(/without a matching request handler/);
    } finally {
      reported.mockRestore();
    }
    expect((await fetch('http://api.test/api/v1/users?size=1')).status).toBe(200);
  });
});
