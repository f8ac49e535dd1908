import { getResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ContractViolationError, createMockApi } from './create-mock-api.js';
import { MOCK_DEMO_PASSWORDS } from './mock-context.js';
import { InvalidDataSetError } from '../core/data-set/data-set-format.js';
import shop from '../examples/data-sets/shop.json' with { type: 'json' };

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

  it('gives an overridden problem the request’s own instance and requestId (they may be left out)', async () => {
    const token = await login();
    mock.override('getUser', {
      status: 404,
      body: {
        type: 'urn:apikit:problem:not-found',
        title: 'Resource not found',
        status: 404,
        detail: 'User 1 does not exist.',
      },
    });
    const res = await fetch(`${base}/api/users/1`, {
      headers: { Authorization: `Bearer ${token}`, 'X-Request-Id': 'own-404' },
    });
    expect(res.status).toBe(404);
    expect(res.headers.get('x-request-id')).toBe('own-404');
    expect(await res.json()).toEqual({
      type: 'urn:apikit:problem:not-found',
      title: 'Resource not found',
      status: 404,
      detail: 'User 1 does not exist.',
      instance: '/api/v1/users/1',
      requestId: 'own-404',
    });
    // The rest of a problem is still the compiler's to check (a type test; never called).
    const missingDetail = () =>
      mock.override('getUser', {
        status: 404,
        // @ts-expect-error `detail` is required
        body: { type: 'urn:apikit:problem:not-found', title: 'x', status: 404 },
      });
    void missingDetail;
  });

  it('refuses an override that breaks the spec, naming the violation', async () => {
    const token = await login();
    // A body the backend could never send: the cast is what a careless test would write.
    mock.override('getUser', { status: 200, body: { id: 'one' } as never });
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    let res: Response;
    let lines: unknown[][];
    try {
      res = await fetch(`${base}/api/v1/users/1`, {
        headers: { Authorization: `Bearer ${token}` },
      });
    } finally {
      lines = [...logged.mock.calls];
      logged.mockRestore();
    }
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await res.json()) as { type: string; detail: string; instance: string };
    expect(problem.type).toBe('urn:apikit:problem:internal-error');
    expect(problem.instance).toBe('/api/v1/users/1');
    expect(problem.detail).toMatch(
      /\(ContractViolationError\): getUser answered 200, which the contract does not allow: .*\/id must be integer/,
    );
    expect(mock.violations).toHaveLength(1);
    // One line naming it, no stack and no MSW "unhandled exception" (issue 30).
    expect(lines).toEqual([[`[apikit mocks] GET ${base}/api/v1/users/1: ${problem.detail}`]]);
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

  it('answer() gives what the handlers send, without MSW, and nothing for what they let pass', async () => {
    const direct = createMockApi({
      baseUrl: 'http://direct.test',
      auth: 'off',
      passwordIterations: 1000,
    });
    const sent = (await getResponse(direct.handlers, readUser('http://direct.test')))!;
    const answer = await direct.answer(readUser('http://direct.test'));
    if (answer === undefined || answer === 'network-error') throw new Error(`got ${answer}`);
    expect(answer.status).toBe(sent.status);
    expect(answer.body).toBe(await sent.text());
    expect([...answer.headers]).toEqual([...sent.headers]);
    expect(answer.operationId).toBe('getUser');
    // Not theirs: another origin than baseUrl, the app's own pages.
    expect(await direct.answer(readUser('http://other.test'))).toBeUndefined();
    expect(await direct.answer(new Request('http://direct.test/index.html'))).toBeUndefined();
  });

  it('answer() says network-error when an override asks for one', async () => {
    const direct = createMockApi({
      baseUrl: 'http://direct.test',
      auth: 'off',
      passwordIterations: 1000,
    });
    direct.override('getUser', { networkError: true }, { times: 1 });
    expect(await direct.answer(readUser('http://direct.test'))).toBe('network-error');
    expect(await direct.answer(readUser('http://direct.test'))).toMatchObject({ status: 200 });
  });

  it('answer() validates against the spec like the handlers', async () => {
    const direct = createMockApi({
      baseUrl: 'http://direct.test',
      auth: 'off',
      passwordIterations: 1000,
    });
    direct.override('getUser', { status: 200, body: { id: 1 } } as never);
    await expect(direct.answer(readUser('http://direct.test'))).rejects.toBeInstanceOf(
      ContractViolationError,
    );
    expect(direct.violations).toHaveLength(1);
  });

  it('answer() answers a Prefer example with the request’s own ids', async () => {
    const direct = createMockApi({
      baseUrl: 'http://direct.test',
      auth: 'off',
      passwordIterations: 1000,
    });
    const answer = await direct.answer(
      new Request('http://direct.test/api/v1/users/2', {
        headers: { Prefer: 'code=404', 'X-Request-Id': 'req-7' },
      }),
    );
    if (answer === undefined || answer === 'network-error') throw new Error(`got ${answer}`);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('x-request-id')).toBe('req-7');
    expect(JSON.parse(answer.body!)).toMatchObject({
      instance: '/api/v1/users/2',
      requestId: 'req-7',
    });
  });
});

describe('createMockApi with a data set of your own', () => {
  const own = 'http://own.test';

  it('serves it, logs its accounts in, and returns to it on reset()', async () => {
    const mine = createMockApi({ baseUrl: own, data: shop, passwordIterations: 1000 });
    const ask = (request: Request) => getResponse(mine.handlers, request);
    const login = await ask(
      new Request(`${own}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'olivia@shop.example', password: 'olivia-shop-password' }),
      }),
    );
    expect(login?.status).toBe(200);
    const { accessToken } = (await login!.json()) as { accessToken: string };
    const auth = { Authorization: `Bearer ${accessToken}` };
    const users = await ask(new Request(`${own}/api/v1/users`, { headers: auth }));
    const page = (await users!.json()) as { totalElements: number; content: { email: string }[] };
    expect(page.totalElements).toBe(4);
    expect(page.content[0]?.email).toBe('olivia@shop.example');
    const removed = await ask(
      new Request(`${own}/api/v1/users/3`, { method: 'DELETE', headers: auth }),
    );
    expect(removed?.status).toBe(204);
    await mine.reset();
    const back = await ask(new Request(`${own}/api/v1/users/3`, { headers: auth }));
    expect(back?.status).toBe(200);
    expect(((await back!.json()) as { name: string }).name).toBe('Nina New');
  });

  it('with auth off, acts as the data set’s first ADMIN who is not BLOCKED', async () => {
    const data = {
      users: [
        { id: 4, name: 'Plain', email: 'plain@example.com' },
        { id: 7, name: 'Boss', email: 'boss@example.com', roles: ['ADMIN' as const] },
      ],
    };
    const mine = createMockApi({ baseUrl: own, data, auth: 'off', passwordIterations: 1000 });
    const me = await getResponse(mine.handlers, new Request(`${own}/api/v1/users/4/roles`));
    expect(me?.status).toBe(200);
    // ADMIN-only: answered, so the request acted as Boss (user 1 does not exist here).
    const block = await getResponse(
      mine.handlers,
      new Request(`${own}/api/v1/admin/users/4/block`, { method: 'POST' }),
    );
    expect(block?.status).toBe(200);
  });

  it('throws at once, listing every problem, for a data set that does not fit the contract', () => {
    const bad = {
      users: [
        { id: 1, name: 'A', email: 'a@example.com' },
        { id: 2, name: 'B', email: 'A@example.com' },
      ],
      orders: [{ id: 1, userId: 3, product: 'Lamp', categoryId: 1 }],
    };
    expect(() => createMockApi({ data: bad as never })).toThrow(InvalidDataSetError);
    try {
      createMockApi({ data: bad as never });
    } catch (error) {
      expect((error as InvalidDataSetError).problems.map((p) => p.pointer)).toEqual([
        '/users/1/email',
        '/users',
        '/orders/0/userId',
      ]);
      expect((error as Error).message).toMatch(
        /^createMockApi\(\{ data \}\) is not a valid data set \(3 problems/,
      );
    }
  });

  it('answers every request with a 500 problem naming the cause when the store cannot be seeded', async () => {
    const broken = createMockApi({
      baseUrl: own,
      persist: {
        storage: {
          getItem: () => {
            throw new Error('storage is switched off');
          },
          setItem: () => undefined,
        },
      },
      onUnexpectedError: () => undefined,
    });
    await expect(broken.ready).rejects.toThrow('storage is switched off');
    const res = await getResponse(
      broken.handlers,
      new Request(`${own}/api/v1/roles`, { headers: { 'X-Request-Id': 'seed-1' } }),
    );
    expect(res?.status).toBe(500);
    expect(res?.headers.get('content-type')).toBe('application/problem+json');
    expect(await res!.json()).toMatchObject({
      status: 500,
      instance: '/api/v1/roles',
      requestId: 'seed-1',
      detail: expect.stringContaining('Error: storage is switched off'),
    });
  });

  it('answers a Prefer the spec cannot give as a 500 problem that says so', async () => {
    const res = await getResponse(
      mock.handlers,
      new Request(`${base}/api/v1/roles`, { headers: { Prefer: 'code=418' } }),
    );
    expect(res?.status).toBe(500);
    expect(res?.headers.get('content-type')).toBe('application/problem+json');
    expect(((await res!.json()) as { detail: string }).detail).toBe(
      'The mock cannot answer as asked: listRoles documents no 418 (documented: 200, 304, 400, 401, 406, 429, 500, 503)',
    );
  });
});
