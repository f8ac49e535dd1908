// What a frontend test relies on, under msw 3 (which intercepts Node's sockets, not `fetch`):
// the README's setup (src/test/, copied from ../vite-react) in Vitest's node and jsdom.
import { expect, it, vi } from 'vitest';
import { mock } from './test/mock-server';

// Relative where there is a page (Vitest's jsdom: http://localhost:3000); Node's fetch needs an origin.
const origin = typeof document === 'undefined' ? 'http://localhost:5173' : '';
const api = `${origin}/api/v1`;

async function login(): Promise<Record<string, string>> {
  const res = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin@example.com', password: 'admin-demo-password' }),
  });
  expect(res.status).toBe(200);
  const { accessToken } = (await res.json()) as { accessToken: string };
  return { Authorization: `Bearer ${accessToken}` };
}

it('logs in, lists users (200) and answers a conditional GET with 304', async () => {
  const auth = await login();
  const list = await fetch(`${api}/users?size=2`, { headers: auth });
  expect(list.status).toBe(200);
  expect(((await list.json()) as { content: unknown[] }).content).toHaveLength(2);
  const read = await fetch(`${api}/users/1`, { headers: auth });
  const etag = read.headers.get('etag');
  expect(etag).toMatch(/^"/);
  const notModified = await fetch(`${api}/users/1`, {
    headers: { ...auth, 'If-None-Match': etag! },
  });
  expect(notModified.status).toBe(304);
  expect(await notModified.text()).toBe('');
});

it('a networkError override rejects fetch with a TypeError, as a real network failure does', async () => {
  const auth = await login();
  mock.override('listUsers', { networkError: true }, { nth: 1 });
  await expect(fetch(`${api}/users`, { headers: auth })).rejects.toThrow(TypeError);
  expect((await fetch(`${api}/users`, { headers: auth })).status).toBe(200);
});

it('the typed overrides still check the body against the spec', async () => {
  // @ts-expect-error the compiler refuses a body that is not a User
  mock.override('getUser', { status: 200, body: { id: 'one' } }, { times: 1 });
  const res = await fetch(`${api}/users/1`, { headers: await login() });
  expect(res.status).toBe(500);
});

it('a request outside the API fails the test: unhandledRequests reached msw 3', async () => {
  // Not a refused connection: msw 3 itself refused it, under its name for the option.
  const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
  const error = await fetch(`${origin}/internal/metrics`).catch((e: unknown) => e);
  const lines = printed.mock.calls.map((call) => call.join(' '));
  printed.mockRestore();
  expect(error).toBeInstanceOf(TypeError);
  const url = new URL(`${origin}/internal/metrics`, globalThis.location?.href).href;
  expect(lines[0]).toBe(
    `[apikit mocks] GET ${url} reached no handler: not a path of the API; the mocks answer /api/v1/..., /api/..., /openapi.json, /openapi.yaml, /healthz and /readyz on any origin.`,
  );
  expect(lines[1]).toMatch(
    /\[MSW\] Error: intercepted a request without a matching request handler/,
  );
});
