import { describe, expect, it } from 'vitest';
import { hashRefreshToken } from './auth-refresh-tokens.js';
import { login, logout, refresh } from './auth-service.js';
import { StoreUnavailableError } from './store.js';
import {
  PASSWORD,
  START,
  USERS,
  createAuthTestContext,
  problemOf,
} from '../../test/support/domain/auth-test-context.js';

const DAY = 24 * 3600;

async function loggedIn() {
  const t = await createAuthTestContext();
  const pair = await login(t.ctx, { username: USERS.user.email, password: PASSWORD });
  return { ...t, pair };
}

describe('refresh', () => {
  it('rotates: a new pair in the same family, in one write; the old token is spent', async () => {
    const { ctx, store, codec, pair, advance } = await loggedIn();
    advance(60);
    const writesBefore = store.writes;
    const next = await refresh(ctx, pair.refreshToken);

    expect(store.writes).toBe(writesBefore + 1);
    expect(next).toMatchObject({ tokenType: 'Bearer', expiresIn: 900 });
    expect(next.refreshToken).not.toBe(pair.refreshToken);
    const claims = await codec.verify(next.accessToken, new Date(START.getTime() + 60_000));
    expect(claims).toMatchObject({ sub: '2', role: 'USER', iat: START.getTime() / 1000 + 60 });

    const old = store.data.refreshTokens[await hashRefreshToken(pair.refreshToken)];
    const fresh = store.data.refreshTokens[await hashRefreshToken(next.refreshToken)];
    expect(old?.spentAt).toBe(new Date(START.getTime() + 60_000).toISOString());
    expect(fresh).toMatchObject({ familyId: old?.familyId, spentAt: null });

    expect((await problemOf(refresh(ctx, pair.refreshToken))).slug).toBe('invalid-refresh-token');
  });

  it('keeps rotating with each new token', async () => {
    const { ctx, pair } = await loggedIn();
    const second = await refresh(ctx, pair.refreshToken);
    const third = await refresh(ctx, second.refreshToken);
    expect(third.refreshToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('revokes the whole family when a spent token is presented again (reuse detection)', async () => {
    const { ctx, pair } = await loggedIn();
    const other = await login(ctx, { username: USERS.user.email, password: PASSWORD });
    const next = await refresh(ctx, pair.refreshToken);

    const reuse = await problemOf(refresh(ctx, pair.refreshToken));
    expect(reuse.status).toBe(401);
    expect(reuse.detail).toMatch(/already used/);
    expect(reuse.headers['WWW-Authenticate']).toBe('Bearer realm="api"');
    expect((await problemOf(refresh(ctx, next.refreshToken))).slug).toBe('invalid-refresh-token');
    // Another login's family is untouched.
    await expect(refresh(ctx, other.refreshToken)).resolves.toMatchObject({ tokenType: 'Bearer' });
  });

  it('answers the reuse 401 only once the revocation is durable', async () => {
    const { ctx, store, pair } = await loggedIn();
    const next = await refresh(ctx, pair.refreshToken);

    store.failNextWrite();
    await expect(refresh(ctx, pair.refreshToken)).rejects.toBeInstanceOf(StoreUnavailableError);
    const nextRecord = store.data.refreshTokens[await hashRefreshToken(next.refreshToken)];
    expect(nextRecord?.spentAt).toBeNull();

    expect((await problemOf(refresh(ctx, pair.refreshToken))).detail).toMatch(/already used/);
    expect(store.data.refreshTokens[nextRecord?.hash ?? '']?.spentAt).not.toBeNull();
  });

  it('lets exactly one of two concurrent refreshes win, and then revokes the family', async () => {
    const { ctx, pair } = await loggedIn();
    const results = await Promise.allSettled([
      refresh(ctx, pair.refreshToken),
      refresh(ctx, pair.refreshToken),
    ]);
    const won = results.filter((result) => result.status === 'fulfilled');
    expect(won).toHaveLength(1);
    const winner = won[0]?.status === 'fulfilled' ? won[0].value : undefined;
    expect((await problemOf(refresh(ctx, winner?.refreshToken ?? ''))).status).toBe(401);
  });

  it('refuses an expired token, and accepts it one second before', async () => {
    const { ctx, pair, advance } = await loggedIn();
    advance(7 * DAY - 1);
    const next = await refresh(ctx, pair.refreshToken);
    advance(7 * DAY);
    const expired = await problemOf(refresh(ctx, next.refreshToken));
    expect(expired.slug).toBe('invalid-refresh-token');
    expect(expired.detail).toMatch(/expired/);
  });

  it('still revokes the family when a spent token is replayed after its own expiry', async () => {
    const { ctx, pair, advance } = await loggedIn();
    advance(6 * DAY);
    const next = await refresh(ctx, pair.refreshToken);
    advance(2 * DAY);
    expect((await problemOf(refresh(ctx, pair.refreshToken))).detail).toMatch(/already used/);
    expect((await problemOf(refresh(ctx, next.refreshToken))).status).toBe(401);
  });

  it('refuses unknown and malformed tokens without writing', async () => {
    const { ctx, store } = await createAuthTestContext();
    for (const token of ['', 'unknown-token', 'x'.repeat(10_000), 42 as unknown as string]) {
      const problem = await problemOf(refresh(ctx, token));
      expect(problem.slug).toBe('invalid-refresh-token');
    }
    expect(store.writes).toBe(0);
  });

  it('refuses a token of a deleted user', async () => {
    const { ctx, store, pair } = await loggedIn();
    await store.write((data) => {
      delete data.users['2'];
    });
    expect((await problemOf(refresh(ctx, pair.refreshToken))).detail).toMatch(/no longer exists/);
  });

  it('refuses a BLOCKED user and spends the family, so unblocking does not revive it', async () => {
    const { ctx, store, pair, user } = await loggedIn();
    await store.write(() => {
      user(2).status = 'BLOCKED';
    });
    expect((await problemOf(refresh(ctx, pair.refreshToken))).detail).toMatch(/blocked/);
    await store.write(() => {
      user(2).status = 'INACTIVE';
    });
    expect((await problemOf(refresh(ctx, pair.refreshToken))).detail).toMatch(/already used/);
  });
});

describe('logout', () => {
  it('spends the token: a later refresh is 401', async () => {
    const { ctx, pair } = await loggedIn();
    await logout(ctx, pair.refreshToken);
    expect((await problemOf(refresh(ctx, pair.refreshToken))).slug).toBe('invalid-refresh-token');
  });

  it('with a stale token of the session also ends the current one', async () => {
    const { ctx, pair } = await loggedIn();
    const next = await refresh(ctx, pair.refreshToken);
    await logout(ctx, pair.refreshToken);
    expect((await problemOf(refresh(ctx, next.refreshToken))).status).toBe(401);
  });

  it('with an unknown token does nothing and does not fail', async () => {
    const { ctx, store } = await createAuthTestContext();
    await expect(logout(ctx, 'never-issued')).resolves.toBeUndefined();
    await expect(logout(ctx, '')).resolves.toBeUndefined();
    expect(store.writes).toBe(0);
  });

  it('twice is fine', async () => {
    const { ctx, pair } = await loggedIn();
    await logout(ctx, pair.refreshToken);
    await expect(logout(ctx, pair.refreshToken)).resolves.toBeUndefined();
  });
});
