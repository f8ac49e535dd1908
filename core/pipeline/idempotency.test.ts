import { describe, expect, it, vi } from 'vitest';
import { ApiProblem } from '../domain/api-problem.js';
import type { IdempotencyRecord } from '../domain/dataset.js';
import { StoreUnavailableError } from '../domain/store.js';
import { createTestContext, type TestContext } from '../../test/support/domain/test-context.js';
import { testDataset } from '../../test/support/domain/test-dataset.js';
import { canonicalJson, IdempotencyKeys, type RememberedAnswer } from './idempotency.js';

const SCOPE = '1 POST /api/v1/users key-1';
const DAY_MS = 24 * 3600 * 1000;

const CREATED: RememberedAnswer = {
  status: 201,
  headers: {
    'Content-Type': 'application/json',
    Location: '/api/v1/users/5',
    ETag: '"abc"',
    'Last-Modified': 'Sat, 10 Jan 2026 08:00:00 GMT',
    'Cache-Control': 'private, no-cache',
    'X-Request-Id': 'first-request',
    RateLimit: 'limit=1000, remaining=999',
  },
  body: '{"id":5}',
};

function setup(): TestContext & { keys: IdempotencyKeys } {
  const tc = createTestContext(testDataset());
  return { ...tc, keys: new IdempotencyKeys(tc.ctx) };
}

/**
 * Keys over the test store whose answer writes (not the claims nor their release, status 0)
 * pass `watch` first: it may note them, or throw as a store refusing the write would.
 */
function keysWatchingAnswers(
  tc: TestContext,
  watch: (record: IdempotencyRecord) => void,
): IdempotencyKeys {
  const repo = tc.ctx.repo;
  return new IdempotencyKeys({
    ...tc.ctx,
    repo: {
      ...repo,
      transact: (work) =>
        repo.transact((tx) =>
          work({
            ...tx,
            settleIdempotency: async (claim, record) => {
              if (record.status !== 0) watch(record);
              return tx.settleIdempotency(claim, record);
            },
          }),
        ),
    },
  });
}

async function problemOf(promise: Promise<unknown>): Promise<ApiProblem> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof ApiProblem))
    throw new Error(`expected an ApiProblem, got ${String(error)}`);
  return error;
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('IdempotencyKeys', () => {
  it('runs the first request and remembers its answer with the describing headers only', async () => {
    const { keys, store } = setup();
    const execute = vi.fn(async () => CREATED);
    expect(await keys.run(SCOPE, { name: 'a' }, execute)).toEqual(CREATED);
    expect(execute).toHaveBeenCalledTimes(1);
    const record = store.data.idempotency[SCOPE];
    expect(record).toMatchObject({
      scope: SCOPE,
      requestBody: '{"name":"a"}',
      status: 201,
      body: '{"id":5}',
      createdAt: '2026-02-01T12:00:00.000Z',
      expiresAt: '2026-02-02T12:00:00.000Z',
    });
    expect(record?.headers).toEqual({
      'Content-Type': 'application/json',
      Location: '/api/v1/users/5',
      ETag: '"abc"',
      'Last-Modified': 'Sat, 10 Jan 2026 08:00:00 GMT',
      'Cache-Control': 'private, no-cache',
    });
  });

  it.each([
    { name: 'the same body', first: { name: 'a', age: 30 }, again: { name: 'a', age: 30 } },
    { name: 'keys in another order', first: { name: 'a', age: 30 }, again: { age: 30, name: 'a' } },
    {
      name: 'nested keys in another order',
      first: { product: 'p', items: [{ product: 'x', quantity: 1 }] },
      again: { items: [{ quantity: 1, product: 'x' }], product: 'p' },
    },
  ])('replays the first answer for $name without running again', async ({ first, again }) => {
    const { keys } = setup();
    await keys.run(SCOPE, first, async () => CREATED);
    const execute = vi.fn(async () => ({ ...CREATED, body: '{"id":6}' }));
    const replay = await keys.run(SCOPE, again, execute);
    expect(execute).not.toHaveBeenCalled();
    expect(replay.status).toBe(201);
    expect(replay.body).toBe('{"id":5}');
    expect(replay.headers.Location).toBe('/api/v1/users/5');
    expect(replay.headers).not.toHaveProperty('X-Request-Id');
  });

  it.each([
    { name: 'another value', first: { name: 'a' }, again: { name: 'b' } },
    { name: 'an extra property', first: { name: 'a' }, again: { name: 'a', age: 30 } },
    { name: 'items in another order', first: { items: [1, 2] }, again: { items: [2, 1] } },
    { name: '1 vs "1"', first: { age: 1 }, again: { age: '1' } },
  ])('refuses the key with $name: 422, not run', async ({ first, again }) => {
    const { keys, store } = setup();
    await keys.run(SCOPE, first, async () => CREATED);
    const writes = store.writes;
    const execute = vi.fn(async () => CREATED);
    const problem = await problemOf(keys.run(SCOPE, again, execute));
    expect(problem.status).toBe(422);
    expect(problem.slug).toBe('idempotency-key-reused');
    expect(execute).not.toHaveBeenCalled();
    expect(store.writes).toBe(writes);
  });

  it('answers 409 while the first request with the key is in flight, then replays', async () => {
    const { keys } = setup();
    const gate = deferred<RememberedAnswer>();
    const first = keys.run(SCOPE, { name: 'a' }, () => gate.promise);
    const execute = vi.fn(async () => CREATED);
    const problem = await problemOf(keys.run(SCOPE, { name: 'a' }, execute));
    expect(problem.status).toBe(409);
    expect(problem.slug).toBe('idempotency-key-in-use');
    expect(execute).not.toHaveBeenCalled();
    gate.resolve(CREATED);
    expect(await first).toEqual(CREATED);
    expect((await keys.run(SCOPE, { name: 'a' }, execute)).body).toBe(CREATED.body);
    expect(execute).not.toHaveBeenCalled();
  });

  it('answers 409 on another instance sharing the store while the key is in flight there', async () => {
    const { keys, ctx } = setup();
    const elsewhere = new IdempotencyKeys(ctx);
    const gate = deferred<RememberedAnswer>();
    const first = keys.run(SCOPE, { name: 'a' }, () => gate.promise);
    // Let the first instance claim the key before the second one looks.
    await new Promise((resolve) => setTimeout(resolve, 0));
    const execute = vi.fn(async () => CREATED);
    expect((await problemOf(elsewhere.run(SCOPE, { name: 'a' }, execute))).slug).toBe(
      'idempotency-key-in-use',
    );
    gate.resolve(CREATED);
    await first;
    expect((await elsewhere.run(SCOPE, { name: 'a' }, execute)).body).toBe(CREATED.body);
    expect(execute).not.toHaveBeenCalled();
  });

  it('frees a claim whose instance died mid-request once its lease is over', async () => {
    const { keys, ctx, clock } = setup();
    void keys.run(SCOPE, { name: 'a' }, () => new Promise<RememberedAnswer>(() => {}));
    await new Promise((resolve) => setTimeout(resolve, 0));
    const elsewhere = new IdempotencyKeys(ctx);
    clock.advance(60_000);
    const execute = vi.fn(async () => CREATED);
    expect(await elsewhere.run(SCOPE, { name: 'a' }, execute)).toEqual(CREATED);
    expect(execute).toHaveBeenCalledTimes(1);
  });

  it('keeps keys of other scopes apart, even while one is in flight', async () => {
    const { keys } = setup();
    const gate = deferred<RememberedAnswer>();
    const first = keys.run(SCOPE, { name: 'a' }, () => gate.promise);
    const other = vi.fn(async () => ({ ...CREATED, body: '{"id":6}' }));
    expect((await keys.run('2 POST /api/v1/users key-1', { name: 'a' }, other)).body).toBe(
      '{"id":6}',
    );
    expect(other).toHaveBeenCalledTimes(1);
    gate.resolve(CREATED);
    await first;
  });

  it.each([
    { name: '409 duplicate email', status: 409 },
    { name: '422 unknown category', status: 422 },
    { name: '404 missing user', status: 404 },
    { name: '500 bug', status: 500 },
  ])('remembers a problem answer ($name) and replays it', async ({ status }) => {
    const { keys } = setup();
    const answer: RememberedAnswer = {
      status,
      headers: { 'Content-Type': 'application/problem+json', 'Cache-Control': 'no-store' },
      body: `{"status":${status}}`,
    };
    await keys.run(SCOPE, { name: 'a' }, async () => answer);
    const execute = vi.fn(async () => CREATED);
    expect(await keys.run(SCOPE, { name: 'a' }, execute)).toEqual(answer);
    expect(execute).not.toHaveBeenCalled();
  });

  it('does not remember a 503: the retry runs again', async () => {
    const { keys, store, clock } = setup();
    const unavailable: RememberedAnswer = {
      status: 503,
      headers: { 'Retry-After': '1' },
      body: '{"status":503}',
    };
    expect(await keys.run(SCOPE, { name: 'a' }, async () => unavailable)).toEqual(unavailable);
    // The key's claim is given back (an expired record until pruned), never the 503.
    const left = store.data.idempotency[SCOPE];
    expect(left === undefined || Date.parse(left.expiresAt) <= clock.now().getTime()).toBe(true);
    expect(left?.status).not.toBe(503);
    const execute = vi.fn(async () => CREATED);
    expect(await keys.run(SCOPE, { name: 'a' }, execute)).toEqual(CREATED);
    expect(execute).toHaveBeenCalledTimes(1);
  });

  it('writes only its own answer when requests with other keys finish at the same time', async () => {
    const tc = setup();
    const answered: string[] = [];
    const keys = keysWatchingAnswers(tc, (record) => {
      answered.push(record.scope);
    });
    const gate = deferred<RememberedAnswer>();
    const scopes = Array.from({ length: 20 }, (_, i) => `${SCOPE}-${i}`);
    const runs = scopes.map((scope) => keys.run(scope, { name: 'a' }, () => gate.promise));
    gate.resolve(CREATED);
    await Promise.all(runs);
    expect(answered.sort()).toEqual([...scopes].sort());
    for (const scope of scopes) expect(tc.store.data.idempotency[scope]?.status).toBe(201);
  });

  it('replays an answer the store refused to keep, and the next write keeps it', async () => {
    const tc = setup();
    let refuse = true;
    const keys = keysWatchingAnswers(tc, () => {
      if (refuse) throw new StoreUnavailableError('down', 1);
    });
    const execute = vi.fn(async () => CREATED);
    expect(await keys.run(SCOPE, { name: 'a' }, execute)).toEqual(CREATED);
    expect(tc.store.data.idempotency[SCOPE]?.status).toBe(0); // only the claim was kept
    expect((await keys.run(SCOPE, { name: 'a' }, execute)).body).toBe(CREATED.body);
    expect(execute).toHaveBeenCalledTimes(1);
    refuse = false;
    await keys.run(`${SCOPE}-other`, { name: 'b' }, async () => CREATED);
    expect(tc.store.data.idempotency[SCOPE]?.status).toBe(201);
    expect(tc.store.data.idempotency[`${SCOPE}-other`]?.status).toBe(201);
  });

  it('forgets the in-flight mark when the request throws', async () => {
    const { keys } = setup();
    await expect(
      keys.run(SCOPE, { name: 'a' }, async () => {
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const execute = vi.fn(async () => CREATED);
    expect(await keys.run(SCOPE, { name: 'a' }, execute)).toEqual(CREATED);
  });

  it.each([
    { name: 'just before 24 hours', after: DAY_MS - 1, replayed: true },
    { name: 'at 24 hours', after: DAY_MS, replayed: false },
    { name: 'after 24 hours', after: DAY_MS + 1, replayed: false },
  ])('replays $name: $replayed', async ({ after, replayed }) => {
    const { keys, clock } = setup();
    await keys.run(SCOPE, { name: 'a' }, async () => CREATED);
    clock.advance(after);
    const execute = vi.fn(async () => ({ ...CREATED, body: '{"id":6}' }));
    const answer = await keys.run(SCOPE, { name: 'a' }, execute);
    expect(answer.body).toBe(replayed ? '{"id":5}' : '{"id":6}');
    expect(execute).toHaveBeenCalledTimes(replayed ? 0 : 1);
  });

  it('takes an expired key with another body as a new request, not a reuse', async () => {
    const { keys, clock } = setup();
    await keys.run(SCOPE, { name: 'a' }, async () => CREATED);
    clock.advance(DAY_MS + 1);
    const execute = vi.fn(async () => CREATED);
    await keys.run(SCOPE, { name: 'b' }, execute);
    expect(execute).toHaveBeenCalledTimes(1);
  });

  it('prunes expired records when it writes a new one', async () => {
    const { keys, clock, store } = setup();
    await keys.run(SCOPE, { name: 'a' }, async () => CREATED);
    clock.advance(DAY_MS + 1);
    await keys.run('1 POST /api/v1/users key-2', { name: 'b' }, async () => CREATED);
    expect(Object.keys(store.data.idempotency)).toContain('1 POST /api/v1/users key-2');
    expect(store.data.idempotency[SCOPE]).toBeUndefined();
  });
});

describe('canonicalJson', () => {
  it.each([
    { name: 'sorted keys', value: { b: 2, a: 1 }, expected: '{"a":1,"b":2}' },
    {
      name: 'nested objects sorted',
      value: { z: { y: 1, x: [{ d: 1, c: 2 }] }, a: null },
      expected: '{"a":null,"z":{"x":[{"c":2,"d":1}],"y":1}}',
    },
    { name: 'arrays keep their order', value: [3, 1, 2], expected: '[3,1,2]' },
    { name: 'a string', value: 'x', expected: '"x"' },
    { name: 'a number', value: 1.5, expected: '1.5' },
    { name: 'null', value: null, expected: 'null' },
    { name: 'an empty object', value: {}, expected: '{}' },
    {
      name: 'code-unit order of keys',
      value: { b: 1, B: 2, a: 3 },
      expected: '{"B":2,"a":3,"b":1}',
    },
    {
      name: 'a __proto__ key kept as data',
      value: JSON.parse('{"b":1,"__proto__":{"x":1}}') as unknown,
      expected: '{"__proto__":{"x":1},"b":1}',
    },
  ])('$name', ({ value, expected }) => {
    expect(canonicalJson(value)).toBe(expected);
  });

  it('gives equal text for equal JSON written differently', () => {
    const a = JSON.parse('{"name":"a","items":[{"q":1,"p":"x"}],"age":null}') as unknown;
    const b = JSON.parse('{"age":null,"items":[{"p":"x","q":1}],"name":"a"}') as unknown;
    expect(canonicalJson(a)).toBe(canonicalJson(b));
  });
});
