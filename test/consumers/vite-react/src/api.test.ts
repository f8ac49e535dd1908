// The behaviour a frontend test relies on, run from the installed tarball in jsdom, happy-dom
// and Node (vite.config.ts): every assertion is what the real backend would answer.
import { ContractViolationError, createMockApi } from 'user-order-apikit/mocks';
import { describe, expect, it, vi } from 'vitest';
import { listUsers, ProblemError } from './api/client';
import { mock, server } from './test/mock-server';

// Relative URLs, as the app writes them, where there is a page (Vitest gives jsdom's and
// happy-dom's the origin http://localhost:3000); Node's fetch needs an origin, any one.
const origin = typeof document === 'undefined' ? 'http://localhost:5173' : '';
const api = `${origin}/api/v1`;

async function login(): Promise<string> {
  const res = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin@example.com', password: 'admin-demo-password' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

const json = (token: string) => ({
  Authorization: `Bearer ${token}`,
  'Content-Type': 'application/json',
});

describe('user-order-apikit/mocks installed in a Vite app', () => {
  it('answers like the backend: statuses, Content-Type, Location, ETag and 304, Link paging', async () => {
    const token = await login();
    const created = await fetch(`${api}/users`, {
      method: 'POST',
      headers: json(token),
      body: JSON.stringify({ name: 'Grace Hopper', email: 'grace@example.com', age: 85 }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('content-type')).toMatch(/^application\/json/);
    const location = created.headers.get('location');
    expect(location).toMatch(/^\/api\/v1\/users\/\d+$/);
    const etag = created.headers.get('etag');
    expect(etag).toMatch(/^"/);
    expect(created.headers.get('x-request-id')).toBeTruthy();

    // State kept across requests: the new user is there, with the same ETag.
    const read = await fetch(`${origin}${location}`, { headers: json(token) });
    expect(read.status).toBe(200);
    expect(read.headers.get('etag')).toBe(etag);
    expect(await read.json()).toMatchObject({ name: 'Grace Hopper', email: 'grace@example.com' });
    const notModified = await fetch(`${origin}${location}`, {
      headers: { ...json(token), 'If-None-Match': etag! },
    });
    expect(notModified.status).toBe(304);

    const page = await fetch(`${api}/users?size=2`, { headers: json(token) });
    expect(page.status).toBe(200);
    expect(page.headers.get('link')).toMatch(/<[^>]*page=1[^>]*>;\s*rel="next"/);
    const body = (await page.json()) as { content: unknown[]; totalElements: number };
    expect(body.content).toHaveLength(2);

    // Bad input: a 400 problem that lists every violated constraint.
    const invalid = await fetch(`${api}/users`, {
      method: 'POST',
      headers: json(token),
      body: JSON.stringify({ name: '', email: 'nope', age: 12 }),
    });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await invalid.json()) as { errors: { pointer: string }[] };
    expect(problem.errors.map((e) => e.pointer).sort()).toEqual(['#/age', '#/email', '#/name']);
  });

  it('an unhandled request fails the test, its message naming the full URL and why', async () => {
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const error = await fetch(`${origin}/internal/metrics`).catch((e: unknown) => e);
    const lines = printed.mock.calls.map((call) => call.join(' '));
    printed.mockRestore();
    expect(error).toBeInstanceOf(TypeError);
    const url = new URL(`${origin}/internal/metrics`, globalThis.location?.href).href;
    expect(lines[0]).toBe(
      `[apikit mocks] GET ${url} reached no handler: not a path of the API; the mocks answer /api/v1/..., /api/..., /openapi.json, /openapi.yaml, /healthz and /readyz on any origin.`,
    );
  });

  it('reset() brings the seed data back', async () => {
    const token = await login();
    const before = (await listUsers(origin, {}, { headers: json(token) })).totalElements;
    const created = await fetch(`${api}/users`, {
      method: 'POST',
      headers: json(token),
      body: JSON.stringify({ name: 'Temp', email: 'temp@example.com', age: 30 }),
    });
    expect(created.status).toBe(201);
    expect((await listUsers(origin, {}, { headers: json(token) })).totalElements).toBe(before + 1);
    await mock.reset();
    const again = await login();
    expect((await listUsers(origin, {}, { headers: json(again) })).totalElements).toBe(before);
    const gone = await fetch(`${origin}${created.headers.get('location')}`, {
      headers: json(again),
    });
    expect(gone.status).toBe(404);
  });

  it('a typed override answers an error state once, then the real behaviour comes back', async () => {
    const token = await login();
    mock.override(
      'listUsers',
      {
        status: 503,
        body: {
          type: 'urn:apikit:problem:service-unavailable',
          title: 'Service unavailable',
          status: 503,
          detail: 'Down for maintenance.',
          instance: '/api/v1/users',
          requestId: 'req-1',
        },
      },
      { times: 1 },
    );
    const error = await listUsers(origin, {}, { headers: json(token) }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProblemError);
    expect((error as ProblemError).problem).toMatchObject({
      status: 503,
      detail: 'Down for maintenance.',
    });
    expect((await listUsers(origin, {}, { headers: json(token) })).content.length).toBeGreaterThan(
      0,
    );
  });

  it('an override with networkError makes fetch reject', async () => {
    const token = await login();
    mock.override('listUsers', { networkError: true }, { nth: 1 });
    await expect(fetch(`${api}/users`, { headers: json(token) })).rejects.toThrow(TypeError);
  });

  it('Prefer: code=404 answers the documented example, naming this request', async () => {
    const token = await login();
    const res = await fetch(`${api}/users/1`, {
      headers: { ...json(token), Prefer: 'code=404' },
    });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    const problem = (await res.json()) as { type: string; instance: string; requestId: string };
    expect(problem.type).toBe('urn:apikit:problem:not-found');
    expect(problem.instance).toBe('/api/v1/users/1');
    expect(problem.requestId).toBe(res.headers.get('x-request-id'));
  });

  it('latency delays the answer by at least the time asked for', async () => {
    const slow = createMockApi({ baseUrl: 'http://slow.test', auth: 'off', latency: 150 });
    server.use(...slow.handlers);
    const started = performance.now();
    const res = await fetch('http://slow.test/api/v1/users?size=1');
    expect(res.status).toBe(200);
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
  });

  it('a contract-violating override is refused with a ContractViolationError naming the violation', async () => {
    const token = await login();
    // @ts-expect-error the compiler refuses a body that is not a User
    mock.override('getUser', { status: 200, body: { id: 'one', name: 'x' } });
    const res = await fetch(`${api}/users/1`, { headers: json(token) });
    expect(res.status).toBe(500);
    // The failed request names the violation too, for whoever reads the test's output.
    expect(await res.text()).toMatch(/ContractViolationError.*getUser answered 200/);
    expect(mock.violations).toHaveLength(1);
    const [violation] = mock.violations;
    expect(violation).toBeInstanceOf(ContractViolationError);
    expect(violation!.operationId).toBe('getUser');
    expect(violation!.message).toMatch(
      /^getUser answered 200, which the contract does not allow: .*id/,
    );

    await mock.reset(); // clears the override and the recorded violations
    expect(mock.violations).toHaveLength(0);
    // @ts-expect-error and a status the contract does not document
    mock.override('getUser', { status: 418 }, { times: 1 });
    const teapot = await fetch(`${api}/users/1`, { headers: json(await login()) });
    expect(teapot.status).toBe(500);
    expect(mock.violations[0]!.message).toMatch(/418 is not documented for getUser/);
  });
});
