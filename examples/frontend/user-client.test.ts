// How a frontend tests its API client against the mocks: `setupServer` intercepts the client's
// fetch in Node, the mocks answer like the real backend, and a test switches one operation to an
// error state with `mock.override`. Copy it next to your client (see README.md).
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockApi, unhandledRequests } from 'user-order-apikit/mocks';
import { ProblemError, UserClient } from './user-client.js';

const baseUrl = 'http://api.test';
// Fewer PBKDF2 rounds for the demo accounts: logins in tests take milliseconds.
const mock = createMockApi({ baseUrl, passwordIterations: 1000 });
const server = setupServer(...mock.handlers);

// msw 2 reads onUnhandledRequest, msw 3 onUnhandledFrame: this names both (decision 0101).
beforeAll(() => server.listen(unhandledRequests('error')));
afterEach(async () => {
  server.resetHandlers(); // drops handlers a test added with server.use
  await mock.reset(); // seed data again, overrides cleared
});
afterAll(() => server.close());

async function adminClient(): Promise<UserClient> {
  const client = new UserClient({ baseUrl });
  await client.login({ username: 'admin@example.com', password: 'admin-demo-password' });
  return client;
}

/** The rejection of a promise, which must be a ProblemError. */
async function problemOf(promise: Promise<unknown>): Promise<ProblemError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ProblemError);
  return error as ProblemError;
}

describe('UserClient against the mocks (setupServer)', () => {
  it('logs in, lists, creates and reads back a user', async () => {
    const client = await adminClient();
    const page = await client.listUsers({ size: 5, sort: ['id,desc'] });
    expect(page.totalElements).toBe(36);
    expect(page.content.map((u) => u.id)).toEqual([36, 35, 34, 33, 32]);

    const created = await client.createUser({ name: 'Grace Hopper', email: 'grace@example.com' });
    expect(created).toMatchObject({ id: 37, name: 'Grace Hopper', age: null, status: 'INACTIVE' });
    expect(await client.getUser(created.id)).toEqual(created);
    expect((await client.listUsers({ status: 'INACTIVE', size: 100 })).content).toContainEqual(
      created,
    );
  });

  it('surfaces the problem of a per-test error state (createUser 409, once)', async () => {
    const client = await adminClient();
    mock.override(
      'createUser',
      {
        status: 409,
        body: {
          type: 'urn:apikit:problem:duplicate-email',
          title: 'Email already in use',
          status: 409,
          detail: 'Another user already has the email grace@example.com.',
          instance: '/api/v1/users',
          requestId: 'test-409',
        },
      },
      { times: 1 },
    );
    const grace = { name: 'Grace Hopper', email: 'grace@example.com' };
    const problem = await problemOf(client.createUser(grace));
    expect(problem).toMatchObject({
      status: 409,
      type: 'urn:apikit:problem:duplicate-email',
      detail: 'Another user already has the email grace@example.com.',
      // A canned problem is about this request: its own id and path (decision 0046).
      instance: '/api/v1/users',
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    expect(problem.message).toBe(problem.detail);
    // `times: 1`: the next call gets the mocks' real behaviour again.
    expect((await client.createUser(grace)).email).toBe('grace@example.com');
  });

  it('surfaces the real validation and auth problems of the mocks, field errors included', async () => {
    const anonymous = new UserClient({ baseUrl });
    expect(await problemOf(anonymous.listUsers())).toMatchObject({
      status: 401,
      type: 'urn:apikit:problem:unauthenticated',
    });
    expect(
      await problemOf(anonymous.login({ username: 'admin@example.com', password: 'wrong' })),
    ).toMatchObject({ status: 401, type: 'urn:apikit:problem:invalid-credentials' });

    const client = await adminClient();
    const invalid = await problemOf(client.createUser({ name: '', email: 'not-an-email' }));
    expect(invalid.status).toBe(400);
    expect(invalid.errors.map((e) => e.pointer).sort()).toEqual(['#/email', '#/name']);
  });

  it('waits for the configured latency', async () => {
    // Per operation: only getUser is slow; the rest answers at once.
    const slow = createMockApi({
      baseUrl: 'http://slow.test',
      auth: 'off',
      latency: { getUser: 200 },
      passwordIterations: 1000,
    });
    server.use(...slow.handlers);
    const client = new UserClient({ baseUrl: 'http://slow.test' });
    const started = performance.now();
    expect((await client.getUser(2)).id).toBe(2);
    // Timers may fire a hair early against performance.now(); never a lower bound than that.
    expect(performance.now() - started).toBeGreaterThanOrEqual(199);
  });

  it('with auth off, calls every operation without logging in (as the admin)', async () => {
    const open = createMockApi({
      baseUrl: 'http://open.test',
      auth: 'off',
      passwordIterations: 1000,
    });
    server.use(...open.handlers);
    const client = new UserClient({ baseUrl: 'http://open.test' });
    expect((await client.listUsers()).totalElements).toBe(36);
    const created = await client.createUser({ name: 'No Login', email: 'no.login@example.com' });
    expect(await client.getUser(created.id)).toEqual(created);
  });

  it('lets a network failure through as fetch’s own TypeError', async () => {
    const client = await adminClient();
    mock.override('getUser', { networkError: true }, { times: 1 });
    await expect(client.getUser(1)).rejects.toThrow(TypeError);
  });
});
