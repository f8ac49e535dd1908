import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createMockApi } from './create-mock-api.js';
import { unhandledMessage, unhandledRequests } from './unhandled-requests.js';

// The msw installed here is 2: it reads onUnhandledRequest. msw 3 reads onUnhandledFrame, proven
// by test/consumers/msw3-consumer.test.ts (decision 0101).
const mock = createMockApi({ baseUrl: 'http://api.test', auth: 'off' });
const server = setupServer(...mock.handlers);

beforeAll(() => server.listen(unhandledRequests('error', mock)));
afterAll(() => server.close());

/** What console.error printed while `run` ran, one string per call. */
async function printed(run: () => Promise<unknown>): Promise<string[]> {
  const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  try {
    await run();
    return reported.mock.calls.map((call) => call.map(String).join(' '));
  } finally {
    reported.mockRestore();
  }
}

describe('unhandledRequests', () => {
  it('names the option as msw 2 and msw 3 read it', () => {
    expect(unhandledRequests('bypass')).toEqual({
      onUnhandledRequest: 'bypass',
      onUnhandledFrame: 'bypass',
    });
    const error = unhandledRequests('error');
    expect(typeof error.onUnhandledRequest).toBe('function');
    expect(typeof error.onUnhandledFrame).toBe('function');
  });

  it('reaches msw 2: a request outside the API fails, the API is answered', async () => {
    const lines = await printed(() =>
      expect(fetch('http://api.test/src/App.vue')).rejects.toThrow(TypeError),
    );
    expect(lines[0]).toBe(
      '[apikit mocks] GET http://api.test/src/App.vue reached no handler: not a path of the API; the mocks answer /api/v1/..., /api/..., /openapi.json, /openapi.yaml, /healthz and /readyz on http://api.test.',
    );
    // MSW's own message follows.
    expect(lines[1]).toMatch(/without a matching request handler/);
    expect((await fetch('http://api.test/api/v1/users?size=1')).status).toBe(200);
  });

  it('an API path on another origin than baseUrl names both origins and the way out', async () => {
    const lines = await printed(() =>
      expect(
        fetch('http://localhost:3000/api/v1/auth/login', { method: 'POST', body: '{}' }),
      ).rejects.toThrow(TypeError),
    );
    expect(lines[0]).toBe(
      "[apikit mocks] POST http://localhost:3000/api/v1/auth/login reached no handler: the mocks answer http://api.test only (createMockApi's baseUrl), not http://localhost:3000; leave baseUrl out to answer relative URLs on whatever origin the page has.",
    );
  });

  it('lets the common assets pass silently, as MSW’s own strategies do', async () => {
    const lines = await printed(() =>
      expect(fetch('http://api.test/logo.svg')).rejects.toThrow(TypeError),
    );
    // Passed on to the network (nothing listens at api.test): no word from either.
    expect(lines).toEqual([]);
  });
});

describe('unhandledMessage', () => {
  const request = new Request('http://localhost:3000/assets/logo.svg');
  it('says any origin when the mocks have no baseUrl', () => {
    expect(unhandledMessage(request, { origin: undefined })).toBe(
      '[apikit mocks] GET http://localhost:3000/assets/logo.svg reached no handler: not a path of the API; the mocks answer /api/v1/..., /api/..., /openapi.json, /openapi.yaml, /healthz and /readyz on any origin.',
    );
  });
  it('without the mock API, says where the origin comes from', () => {
    expect(unhandledMessage(request)).toMatch(/on createMockApi's baseUrl origin, if one is set/);
  });
});
