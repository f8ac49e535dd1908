import { describe, expect, it } from 'vitest';
import { createJwtAccessTokenCodec } from '../../node-runtime/jwt-access-token-codec.js';
import { authenticate, login } from './auth-service.js';
import { createCachingAccessTokenCodec } from './caching-access-token-codec.js';
import { TokenRejectedError, type AccessTokenCodec } from './ports.js';
import {
  PASSWORD,
  START,
  TEST_SECRET,
  USERS,
  createAuthTestContext,
  problemOf,
} from '../../test/support/domain/auth-test-context.js';

const inner = createJwtAccessTokenCodec(TEST_SECRET);

/** The real codec, counting the verifications that reach it. */
function counted(): AccessTokenCodec & { calls: number } {
  const codec = {
    calls: 0,
    sign: inner.sign,
    verify(token: string, now: Date) {
      codec.calls += 1;
      return inner.verify(token, now);
    },
  };
  return codec;
}

const at = (seconds: number) => new Date(START.getTime() + seconds * 1000);
const sign = (sub: string, ttl = 900, now = START) =>
  inner.sign({ sub, name: 'Someone', role: 'USER' }, ttl, now);

async function rejection(promise: Promise<unknown>): Promise<string> {
  const error: unknown = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof TokenRejectedError)) throw new Error(`not refused: ${String(error)}`);
  return error.reason;
}

describe('createCachingAccessTokenCodec', () => {
  it('verifies a token once and answers its claims from the cache afterwards', async () => {
    const codec = counted();
    const cache = createCachingAccessTokenCodec(codec);
    const token = await sign('7');
    const first = await cache.verify(token, START);
    expect(await cache.verify(token, at(10))).toEqual(first);
    expect(await cache.verify(token, at(899))).toEqual(first);
    expect(codec.calls).toBe(1);
    expect(first).toMatchObject({ sub: '7', role: 'USER', exp: START.getTime() / 1000 + 900 });
  });

  it('hands out copies: a caller changing its claims changes nothing cached', async () => {
    const cache = createCachingAccessTokenCodec(counted());
    const token = await sign('7');
    const claims = await cache.verify(token, START);
    claims.sub = '1';
    (await cache.verify(token, START)).role = 'ADMIN';
    expect(await cache.verify(token, START)).toMatchObject({ sub: '7', role: 'USER' });
  });

  it('honours exp: at exp the wrapped codec judges again and refuses it as expired', async () => {
    const codec = counted();
    const cache = createCachingAccessTokenCodec(codec);
    const token = await sign('7', 60);
    await cache.verify(token, START);
    expect(await rejection(cache.verify(token, at(60)))).toBe('expired');
    expect(await rejection(cache.verify(token, at(61)))).toBe('expired');
    expect(codec.calls).toBe(3);
    expect(cache.size).toBe(0);
  });

  it('judges again when the clock is before the moment the token was verified', async () => {
    const codec = counted();
    const cache = createCachingAccessTokenCodec(codec);
    const token = await sign('7', 900, at(100));
    await cache.verify(token, at(100));
    await cache.verify(token, at(50));
    expect(codec.calls).toBe(2);
  });

  it('never answers a tampered token from the cache, however close to a cached one', async () => {
    const codec = counted();
    const cache = createCachingAccessTokenCodec(codec);
    const token = await sign('7');
    await cache.verify(token, START);
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const admin = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: '1' }),
    ).toString('base64url');
    const flipped = signature.slice(0, -1) + (signature.endsWith('A') ? 'B' : 'A');
    expect(await rejection(cache.verify(`${header}.${admin}.${signature}`, START))).toBe(
      'signature',
    );
    expect(await rejection(cache.verify(`${header}.${payload}.${flipped}`, START))).toBe(
      'signature',
    );
    expect(await rejection(cache.verify(`${token} `, START))).toBe('malformed');
    expect(codec.calls).toBe(4);
    // Refusals are not remembered either: each is judged in full every time.
    await rejection(cache.verify(`${header}.${payload}.${flipped}`, START));
    expect(codec.calls).toBe(5);
    expect(cache.size).toBe(1);
  });

  it('stays within maxEntries, dropping the oldest token first', async () => {
    const codec = counted();
    const cache = createCachingAccessTokenCodec(codec, { maxEntries: 3 });
    const tokens = await Promise.all(['1', '2', '3', '4', '5'].map((sub) => sign(sub)));
    for (const token of tokens) await cache.verify(token, START);
    expect(cache.size).toBe(3);
    expect(codec.calls).toBe(5);
    await cache.verify(tokens[4] as string, START); // still cached
    expect(codec.calls).toBe(5);
    await cache.verify(tokens[0] as string, START); // was dropped: verified again
    expect(codec.calls).toBe(6);
    expect(cache.size).toBe(3);
  });

  it('refuses a size that is not a positive integer', () => {
    expect(() => createCachingAccessTokenCodec(inner, { maxEntries: 0 })).toThrow(RangeError);
    expect(() => createCachingAccessTokenCodec(inner, { maxEntries: 1.5 })).toThrow(RangeError);
  });

  it('signs through the wrapped codec', async () => {
    const cache = createCachingAccessTokenCodec(counted());
    const token = await cache.sign({ sub: '3', name: 'X', role: 'ADMIN' }, 60, START);
    expect(await inner.verify(token, START)).toMatchObject({ sub: '3', role: 'ADMIN' });
  });
});

describe('authenticate over the cache', () => {
  async function cachedContext() {
    const t = await createAuthTestContext();
    const codec = counted();
    t.ctx.tokens = createCachingAccessTokenCodec(codec);
    const pair = await login(t.ctx, { username: USERS.user.email, password: PASSWORD });
    await authenticate(t.ctx, pair.accessToken); // now cached
    return { ...t, codec, token: pair.accessToken };
  }

  it('still refuses a cached token once its user is BLOCKED, and accepts it again when unblocked', async () => {
    const { ctx, token, user, codec } = await cachedContext();
    user(USERS.user.id).status = 'BLOCKED';
    expect((await problemOf(authenticate(ctx, token))).detail).toMatch(/blocked/i);
    user(USERS.user.id).status = 'INACTIVE';
    await expect(authenticate(ctx, token)).resolves.toEqual({ userId: 2, isAdmin: false });
    expect(codec.calls).toBe(1);
  });

  it('still refuses a cached token once its user is deleted', async () => {
    const { ctx, token, store } = await cachedContext();
    delete store.data.users[String(USERS.user.id)];
    expect((await problemOf(authenticate(ctx, token))).detail).toMatch(/no longer exists/);
  });

  it('takes a demotion or promotion from the current roles, not from the cache', async () => {
    const { ctx, token, user } = await cachedContext();
    user(USERS.user.id).roleIds.push(2);
    await expect(authenticate(ctx, token)).resolves.toEqual({ userId: 2, isAdmin: true });
  });

  it('refuses a cached token after its exp', async () => {
    const { ctx, token, advance } = await cachedContext();
    advance(900);
    expect((await problemOf(authenticate(ctx, token))).detail).toMatch(/expired/i);
  });
});
