import { afterEach, describe, expect, it, vi } from 'vitest';
import { INVALID_CREDENTIALS_DETAIL } from './auth-problems.js';
import { hashRefreshToken } from './auth-refresh-tokens.js';
import { login } from './auth-service.js';
import {
  PASSWORD,
  START,
  USERS,
  createAuthTestContext,
  problemOf,
} from '../../test/support/domain/auth-test-context.js';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('login', () => {
  it('answers a token pair whose access token carries the user claims', async () => {
    const { ctx, codec } = await createAuthTestContext();
    const pair = await login(ctx, { username: USERS.admin.email, password: PASSWORD });

    expect(pair).toEqual({
      accessToken: expect.any(String),
      refreshToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      tokenType: 'Bearer',
      expiresIn: 900,
    });
    const iat = START.getTime() / 1000;
    expect(await codec.verify(pair.accessToken, START)).toEqual({
      sub: '1',
      name: 'Test admin',
      role: 'ADMIN',
      iat,
      exp: iat + 900,
    });
    const user = await login(ctx, { username: USERS.user.email, password: PASSWORD });
    expect((await codec.verify(user.accessToken, START)).role).toBe('USER');
  });

  it('stores the refresh token only as its SHA-256, in a new family, valid 7 days', async () => {
    const { ctx, store } = await createAuthTestContext();
    const first = await login(ctx, { username: USERS.user.email, password: PASSWORD });
    const second = await login(ctx, { username: USERS.user.email, password: PASSWORD });

    const hash = await hashRefreshToken(first.refreshToken);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(store.data.refreshTokens[hash]).toEqual({
      hash,
      userId: 2,
      familyId: expect.any(String),
      createdAt: START.toISOString(),
      expiresAt: '2030-01-08T00:00:00.000Z',
      spentAt: null,
    });
    expect(JSON.stringify(store.data)).not.toContain(first.refreshToken);
    const secondRecord = store.data.refreshTokens[await hashRefreshToken(second.refreshToken)];
    expect(secondRecord?.familyId).not.toBe(store.data.refreshTokens[hash]?.familyId);
    expect(store.writes).toBe(2);
  });

  it('compares the email case-insensitively', async () => {
    const { ctx } = await createAuthTestContext();
    const pair = await login(ctx, { username: 'ADMIN@Example.COM', password: PASSWORD });
    expect(pair.tokenType).toBe('Bearer');
  });

  it('answers one 401 for a wrong password, an unknown email and a user without password', async () => {
    const { ctx, store } = await createAuthTestContext();
    const attempts = [
      { username: USERS.user.email, password: 'wrong password' },
      { username: 'nobody@example.com', password: PASSWORD },
      { username: USERS.noPassword.email, password: PASSWORD },
      { username: USERS.noPassword.email, password: '' },
    ];
    for (const attempt of attempts) {
      const problem = await problemOf(login(ctx, attempt));
      expect(problem.slug).toBe('invalid-credentials');
      expect(problem.status).toBe(401);
      expect(problem.detail).toBe(INVALID_CREDENTIALS_DETAIL);
      expect(problem.headers['WWW-Authenticate']).toBe('Bearer realm="api"');
    }
    expect(store.writes).toBe(0);
  });

  it('still verifies a password when the email is unknown or has no password (timing)', async () => {
    const { ctx } = await createAuthTestContext();
    const verify = vi.spyOn(ctx.passwords, 'verify');
    await problemOf(login(ctx, { username: 'nobody@example.com', password: PASSWORD }));
    await problemOf(login(ctx, { username: USERS.noPassword.email, password: PASSWORD }));
    expect(verify).toHaveBeenCalledTimes(2);
    expect(verify.mock.calls[0]?.[1]).toMatch(/^scrypt\$/);
  });

  it('refuses a BLOCKED user with 403 only once the password is right', async () => {
    const { ctx, store } = await createAuthTestContext();
    const blocked = await problemOf(
      login(ctx, { username: USERS.blocked.email, password: PASSWORD }),
    );
    expect(blocked.slug).toBe('account-blocked');
    expect(blocked.status).toBe(403);

    const wrong = await problemOf(login(ctx, { username: USERS.blocked.email, password: 'nope' }));
    expect(wrong.slug).toBe('invalid-credentials');
    expect(store.writes).toBe(0);
  });

  it('lets an INACTIVE user log in', async () => {
    const { ctx, codec } = await createAuthTestContext();
    const pair = await login(ctx, { username: USERS.inactive.email, password: PASSWORD });
    expect((await codec.verify(pair.accessToken, START)).sub).toBe('3');
  });

  it('refuses a user blocked while the password was being checked, without writing', async () => {
    const { ctx, store, user } = await createAuthTestContext();
    const realVerify = ctx.passwords.verify.bind(ctx.passwords);
    vi.spyOn(ctx.passwords, 'verify').mockImplementation(async (password, stored) => {
      const ok = await realVerify(password, stored);
      user(2).status = 'BLOCKED';
      return ok;
    });
    const problem = await problemOf(login(ctx, { username: USERS.user.email, password: PASSWORD }));
    expect(problem.slug).toBe('account-blocked');
    expect(store.data.refreshTokens).toEqual({});
  });

  it('drops the records of families that have wholly expired', async () => {
    const { ctx, store, advance } = await createAuthTestContext();
    const old = await login(ctx, { username: USERS.user.email, password: PASSWORD });
    advance(7 * 24 * 3600);
    await login(ctx, { username: USERS.user.email, password: PASSWORD });
    expect(store.data.refreshTokens[await hashRefreshToken(old.refreshToken)]).toBeUndefined();
    expect(Object.keys(store.data.refreshTokens)).toHaveLength(1);
  });
});
