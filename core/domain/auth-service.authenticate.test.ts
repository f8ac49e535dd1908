import { createHmac } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { createJwtAccessTokenCodec } from '../../node-runtime/jwt-access-token-codec.js';
import { authenticate, login } from './auth-service.js';
import { TokenRejectedError } from './ports.js';
import {
  PASSWORD,
  START,
  TEST_SECRET,
  USERS,
  createAuthTestContext,
  problemOf,
} from '../../test/support/domain/auth-test-context.js';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const hs256 = (input: string) =>
  createHmac('sha256', TEST_SECRET).update(input).digest('base64url');
const iat = START.getTime() / 1000;
const claims = { sub: '2', name: 'Test user', role: 'USER', iat, exp: iat + 900 };

async function userToken() {
  const t = await createAuthTestContext();
  const pair = await login(t.ctx, { username: USERS.user.email, password: PASSWORD });
  return { ...t, token: pair.accessToken };
}

describe('authenticate', () => {
  it('resolves the principal of a valid token', async () => {
    const { ctx, token } = await userToken();
    expect(await authenticate(ctx, token)).toEqual({ userId: 2, isAdmin: false });
    const admin = await login(ctx, { username: USERS.admin.email, password: PASSWORD });
    expect(await authenticate(ctx, admin.accessToken)).toEqual({ userId: 1, isAdmin: true });
  });

  const forged: [string, (token: string) => string, RegExp][] = [
    ['garbage', () => 'not-a-jwt', /malformed/],
    [
      'a wrong secret',
      () => jwt.sign(claims, 'another-secret-that-is-32-bytes-long!!'),
      /signature/,
    ],
    [
      'a tampered payload',
      (token) => {
        const [header, , signature] = token.split('.');
        return `${header}.${b64({ ...claims, sub: '1', role: 'ADMIN' })}.${signature}`;
      },
      /signature/,
    ],
    ['alg none', () => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`, /algorithm/],
    [
      'HS512 with the same secret',
      () => jwt.sign(claims, TEST_SECRET, { algorithm: 'HS512' }),
      /algorithm/,
    ],
    [
      'an RS256 header (HMAC-signed with the secret)',
      () => {
        const input = `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64(claims)}`;
        return `${input}.${hs256(input)}`;
      },
      /algorithm/,
    ],
  ];

  it.each(forged)('refuses %s with 401 invalid-token, saying why', async (_, forge, why) => {
    const { ctx, token } = await userToken();
    const presented = forge(token);
    const problem = await problemOf(authenticate(ctx, presented));
    expect(problem.slug).toBe('invalid-token');
    expect(problem.status).toBe(401);
    expect(problem.detail).toMatch(why);
    expect(problem.detail).not.toContain(presented);
    expect(problem.headers['WWW-Authenticate']).toBe('Bearer realm="api", error="invalid_token"');
  });

  it('refuses an expired token', async () => {
    const { ctx, token, advance } = await userToken();
    advance(899);
    await expect(authenticate(ctx, token)).resolves.toMatchObject({ userId: 2 });
    advance(1);
    expect((await problemOf(authenticate(ctx, token))).detail).toMatch(/expired/);
  });

  it('refuses a subject that is not a positive integer', async () => {
    const { ctx, codec } = await createAuthTestContext();
    for (const sub of ['0', '01', '-1', '1.0', 'abc', '9007199254740993']) {
      const token = await codec.sign({ sub, name: 'x', role: 'ADMIN' }, 900, START);
      expect((await problemOf(authenticate(ctx, token))).detail).toMatch(/not a user id/);
    }
  });

  it('refuses the token of a deleted user', async () => {
    const { ctx, store, token } = await userToken();
    await store.write((data) => {
      delete data.users['2'];
    });
    const problem = await problemOf(authenticate(ctx, token));
    expect(problem.slug).toBe('invalid-token');
    expect(problem.detail).toMatch(/no longer exists/);
  });

  it('refuses a BLOCKED user at once, and accepts the same token again after unblocking', async () => {
    const { ctx, store, token, user } = await userToken();
    await store.write(() => {
      user(2).status = 'BLOCKED';
    });
    expect((await problemOf(authenticate(ctx, token))).detail).toMatch(/blocked/);
    await store.write(() => {
      user(2).status = 'INACTIVE';
    });
    expect(await authenticate(ctx, token)).toEqual({ userId: 2, isAdmin: false });
  });

  it('reads ADMIN from the current roles, not from the role claim', async () => {
    const { ctx, store, codec, user } = await createAuthTestContext();
    const admin = await login(ctx, { username: USERS.admin.email, password: PASSWORD });
    const plain = await login(ctx, { username: USERS.user.email, password: PASSWORD });
    expect((await codec.verify(admin.accessToken, START)).role).toBe('ADMIN');

    await store.write(() => {
      user(1).roleIds = [1];
      user(2).roleIds = [1, 2];
    });
    expect(await authenticate(ctx, admin.accessToken)).toEqual({ userId: 1, isAdmin: false });
    expect(await authenticate(ctx, plain.accessToken)).toEqual({ userId: 2, isAdmin: true });
  });

  it('lets errors other than a refused token through (they are bugs, not 401s)', async () => {
    const { ctx, token } = await userToken();
    const broken = new Error('codec bug');
    ctx.tokens = { sign: ctx.tokens.sign, verify: () => Promise.reject(broken) };
    await expect(authenticate(ctx, token)).rejects.toBe(broken);
    ctx.tokens = {
      sign: ctx.tokens.sign,
      verify: () => Promise.reject(new TokenRejectedError('not-yet-valid')),
    };
    expect((await problemOf(authenticate(ctx, token))).detail).toMatch(/not valid yet/);
  });

  it('accepts tokens of a codec with the same secret given as bytes', async () => {
    const { ctx, token } = await userToken();
    ctx.tokens = createJwtAccessTokenCodec(new TextEncoder().encode(TEST_SECRET));
    await expect(authenticate(ctx, token)).resolves.toEqual({ userId: 2, isAdmin: false });
  });
});
