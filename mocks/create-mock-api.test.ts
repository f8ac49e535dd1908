import { getResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  ContractViolationError,
  createMockApi,
  expectDirectAnswer,
  takeDirectAnswer,
} from './create-mock-api.js';
import { MOCK_DEMO_PASSWORDS } from './mock-context.js';

const base = 'http://api.test';
const mock = createMockApi({ baseUrl: base, passwordIterations: 1000 });
const server = setupServer(...mock.handlers);

beforeAll(async () => {
  server.listen({ onUnhandledRequest: 'error' });
  await mock.ready;
});
afterEach(() => mock.reset());
afterAll(() => server.close());

async function login(username = 'admin@example.com', password = MOCK_DEMO_PASSWORDS.admin) {
  const res = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  return ((await res.json()) as { accessToken: string }).accessToken;
}

describe('createMockApi in Node (setupServer, plain fetch)', () => {
  it('logs in, lists, creates and reads back, statefully, with the server’s headers', async () => {
    const token = await login();
    const auth = { Authorization: `Bearer ${token}` };
    const list = await fetch(`${base}/api/v1/users?size=2`, { headers: auth });
    expect(list.status).toBe(200);
    expect(list.headers.get('etag')).toMatch(/^W\//);
    expect(((await list.json()) as { totalElements: number }).totalElements).toBe(36);
    const created = await fetch(`${base}/api/v1/users`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Mock Person', email: 'mock@example.com' }),
    });
    expect(created.status).toBe(201);
    const location = created.headers.get('location')!;
    const read = await fetch(`${base}${location}`, { headers: auth });
    expect(((await read.json()) as { name: string }).name).toBe('Mock Person');
  });

  it('enforces auth and the contract’s errors: 401 problem+json with WWW-Authenticate', async () => {
    const res = await fetch(`${base}/api/v1/users`);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
  });

  it('answers a path escape that is not UTF-8 as the server does (400; OPTIONS 204), not 500', async () => {
    const token = await login();
    const read = await fetch(`${base}/api/v1/users/%ED%A0%80`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(read.status).toBe(400);
    expect(read.headers.get('content-type')).toBe('application/problem+json');
    const options = await fetch(`${base}/api/v1/users/x%ED%B0%80/activate`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
  });

  it('answers a per-test override once, then behaves normally again', async () => {
    const token = await login();
    mock.override(
      'getUser',
      {
        status: 404,
        body: {
          type: 'urn:apikit:problem:not-found',
          title: 'Resource not found',
          status: 404,
          detail: 'User 1 does not exist.',
          instance: '/api/v1/users/1',
          requestId: 'r-1',
        },
      },
      { times: 1 },
    );
    const first = await fetch(`${base}/api/v1/users/1`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(first.status).toBe(404);
    const second = await fetch(`${base}/api/v1/users/1`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(second.status).toBe(200);
  });

  it('refuses an override that breaks the spec, naming the violation', async () => {
    const token = await login();
    // A body the backend could never send: the cast is what a careless test would write.
    mock.override('getUser', { status: 200, body: { id: 'one' } as never });
    const res = await fetch(`${base}/api/v1/users/1`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(500);
    expect(await res.text()).toMatch(
      /getUser answered 200, which the contract does not allow: .*\/id must be integer/,
    );
    expect(mock.violations).toHaveLength(1);
  });

  it('speaks Prism’s Prefer vocabulary: code and example', async () => {
    const token = await login();
    const res = await fetch(`${base}/api/v1/users/1`, {
      headers: { Authorization: `Bearer ${token}`, Prefer: 'code=404' },
    });
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
  });

  it('answers Prefer dynamic=true with bodies generated from the schema, each one validated', async () => {
    const token = await login();
    const ask = () =>
      fetch(`${base}/api/v1/users/1`, {
        headers: { Authorization: `Bearer ${token}`, Prefer: 'dynamic=true' },
      });
    const [first, second] = [await ask(), await ask()];
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(first.headers.get('etag')).toMatch(/^(W\/)?"/);
    const [a, b] = [await first.json(), await second.json()];
    expect(typeof a.id).toBe('number');
    expect(a).not.toEqual(b);
    expect(mock.violations).toEqual([]);
  });

  it('with auth off, skips the login dance', async () => {
    const open = createMockApi({
      baseUrl: 'http://open.test',
      auth: 'off',
      passwordIterations: 1000,
    });
    server.use(...open.handlers);
    const res = await fetch('http://open.test/api/v1/users/2');
    expect(res.status).toBe(200);
  });

  it('simulates a network error', async () => {
    mock.override('listRoles', { networkError: true }, { nth: 1 });
    await expect(fetch(`${base}/api/v1/roles`)).rejects.toThrow();
  });
});

describe('createMockApi per request (msw getResponse, no interception)', () => {
  const readUser = (origin: string) =>
    new Request(`${origin}/api/v1/users/2`, { headers: { 'X-Request-Id': 'req-1' } });

  it('without latency, answers with no timer in between (the clock never moves)', async () => {
    const quick = createMockApi({
      baseUrl: 'http://quick.test',
      auth: 'off',
      passwordIterations: 1000,
    });
    await quick.ready;
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      // With a timer (msw's delay(0)) this would wait forever: the fake clock is never advanced.
      const res = await getResponse(quick.handlers, readUser('http://quick.test'));
      expect(res?.status).toBe(200);
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  it('with latency, the answer waits for its timer', async () => {
    const slow = createMockApi({
      baseUrl: 'http://slow.test',
      auth: 'off',
      latency: 50,
      passwordIterations: 1000,
    });
    await slow.ready;
    vi.useFakeTimers({ toFake: ['setTimeout'] });
    try {
      let settled = false;
      const pending = getResponse(slow.handlers, readUser('http://slow.test')).finally(() => {
        settled = true;
      });
      for (let i = 0; i < 1000 && vi.getTimerCount() === 0; i++)
        await new Promise((resolve) => setImmediate(resolve));
      expect(vi.getTimerCount()).toBe(1);
      vi.advanceTimersByTime(49);
      await new Promise((resolve) => setImmediate(resolve));
      expect(settled).toBe(false);
      vi.advanceTimersByTime(1);
      expect((await pending)?.status).toBe(200);
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves the answer to a sender that takes it directly: the same answer, a bodiless Response', async () => {
    const direct = createMockApi({
      baseUrl: 'http://direct.test',
      auth: 'off',
      passwordIterations: 1000,
    });
    const plain = (await getResponse(direct.handlers, readUser('http://direct.test')))!;
    const marked = readUser('http://direct.test');
    expectDirectAnswer(marked);
    const response = (await getResponse(direct.handlers, marked))!;
    expect(response.status).toBe(200);
    expect(response.body).toBeNull();
    const answer = takeDirectAnswer(marked)!;
    expect(answer.status).toBe(plain.status);
    expect(answer.body).toBe(await plain.text());
    expect([...answer.headers]).toEqual([...plain.headers]);
    expect(takeDirectAnswer(marked)).toBeUndefined(); // taken once
    // An unmarked request leaves nothing behind.
    const unmarked = readUser('http://direct.test');
    await getResponse(direct.handlers, unmarked);
    expect(takeDirectAnswer(unmarked)).toBeUndefined();
  });

  it('validates a direct answer against the spec like any other', async () => {
    const direct = createMockApi({
      baseUrl: 'http://direct.test',
      auth: 'off',
      passwordIterations: 1000,
    });
    direct.override('getUser', { status: 200, body: { id: 1 } } as never);
    const marked = readUser('http://direct.test');
    expectDirectAnswer(marked);
    await expect(getResponse(direct.handlers, marked)).rejects.toBeInstanceOf(
      ContractViolationError,
    );
    expect(takeDirectAnswer(marked)).toBeUndefined();
    expect(direct.violations).toHaveLength(1);
  });
});
