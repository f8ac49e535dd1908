// What the app's fetch calls get from the mocks, with relative URLs as the app writes them, in
// jsdom and happy-dom (vite.config.ts). src/test/setup.ts, the README's, resets the mocks after
// every test: a user created in one test is gone in the next.
import { describe, expect, it } from 'vitest';
import { mock } from './test/mock-server';

/**
 * The origin each environment gives its page: what the relative URLs below resolve against.
 * Vitest opens both at http://localhost:3000 (its default `url` for jsdom too; Jest's jsdom
 * page is http://localhost), an origin no createMockApi option names.
 */
const PAGE_ORIGIN: Record<string, string> = {
  jsdom: 'http://localhost:3000',
  'happy-dom': 'http://localhost:3000',
};

async function login(): Promise<string> {
  const res = await fetch('/api/v1/auth/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin@example.com', password: 'admin-demo-password' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

const auth = (token: string) => ({ Authorization: `Bearer ${token}` });

async function totalUsers(token: string): Promise<number> {
  const res = await fetch('/api/v1/users?size=1', { headers: auth(token) });
  expect(res.status).toBe(200);
  return ((await res.json()) as { totalElements: number }).totalElements;
}

/** What the test that creates a user leaves for the next one to look for. */
let created: { location: string; totalBefore: number } | undefined;

describe('the mocks behind relative URLs', () => {
  it('answer on the page’s own origin, whichever the environment gives', ({ task }) => {
    const environment = task.file.projectName ?? '';
    const origin = `${environment}: location.origin ${location.origin}`;
    console.log(`apikit-vue-origin ${origin}`);
    expect(origin).toBe(`${environment}: location.origin ${PAGE_ORIGIN[environment]}`);
  });

  it('POST /api/v1/users with a bearer token: 201, Location, the new user readable there', async () => {
    const token = await login();
    const totalBefore = await totalUsers(token);
    const res = await fetch('/api/v1/users', {
      method: 'POST',
      headers: { ...auth(token), 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Evan You', email: 'evan.vue@example.com', age: 40 }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const location = res.headers.get('location')!;
    expect(location).toMatch(/^\/api\/v1\/users\/\d+$/);
    const read = await fetch(location, { headers: auth(token) });
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ name: 'Evan You', email: 'evan.vue@example.com' });
    expect(await totalUsers(token)).toBe(totalBefore + 1);
    created = { location, totalBefore };
  });

  it('mock.reset() ran after the last test: that user is gone, its URL a 404 problem+json', async () => {
    expect(created, 'the test before this one creates the user').toBeDefined();
    const token = await login();
    const res = await fetch(created!.location, { headers: auth(token) });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await res.json()) as { type: string; status: number; instance: string };
    expect(problem).toMatchObject({
      type: 'urn:apikit:problem:not-found',
      status: 404,
      instance: created!.location,
    });
    expect(await totalUsers(token)).toBe(created!.totalBefore);
  });

  it('GET /api/v1/users/1 gives an ETag, and If-None-Match with it a 304', async () => {
    const token = await login();
    const first = await fetch('/api/v1/users/1', { headers: auth(token) });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^(W\/)?"/);
    const again = await fetch('/api/v1/users/1', {
      headers: { ...auth(token), 'If-None-Match': etag! },
    });
    expect(again.status).toBe(304);
  });

  it('a networkError override makes the next list request reject with a TypeError', async () => {
    const token = await login();
    mock.override('listUsers', { networkError: true }, { nth: 1 });
    await expect(fetch('/api/v1/users', { headers: auth(token) })).rejects.toThrow(TypeError);
    // Only the first: the next one is answered.
    expect((await fetch('/api/v1/users', { headers: auth(token) })).status).toBe(200);
  });
});
