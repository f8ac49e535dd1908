import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { TEST_JWT_SECRET, TEST_USER_PASSWORD } from '../start-test-server.js';
import type { Problem } from './contract-checks.js';
import type { TokenPair } from './fixtures.js';
import type { SuiteContext } from './suite-context.js';

/**
 * Access-token revocation, access-token checks, and refresh-token rotation with reuse detection,
 * all over HTTP.
 */
export function authFlowsSuite(ctx: SuiteContext): void {
  const asUser = (token: string) => ctx.fx.call('GET', '/users/2', { token });
  const refresh = (refreshToken: string) =>
    ctx.fx.call('POST', '/auth/refresh', { token: null, json: { refreshToken } });
  /** An access token for any user, signed by the server's own codec (users made by the API have no password). */
  const tokenFor = (id: number, ttl = 900, now = new Date()) =>
    ctx.server.ctx.tokens.sign({ sub: String(id), name: 'Row User', role: 'USER' }, ttl, now);

  const expectInvalidToken = (res: { status: number; headers: Headers; json<T>(): T }) => {
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api", error="invalid_token"');
    expect(res.json<Problem>().type).toBe('urn:apikit:problem:invalid-token');
  };

  describe('token revocation is immediate', () => {
    it("a BLOCKED user's access token is 401 at once; unblocked, the same token works again", async () => {
      const { accessToken } = await ctx.fx.loginAsUser();
      expect((await asUser(accessToken)).status).toBe(200);
      await ctx.fx.block(2);
      try {
        expectInvalidToken(await asUser(accessToken));
        const login = await ctx.fx.call('POST', '/auth/login', {
          token: null,
          json: { username: 'user@example.com', password: TEST_USER_PASSWORD },
        });
        expect(login.status).toBe(403);
        expect(login.json<Problem>().type).toBe('urn:apikit:problem:account-blocked');
      } finally {
        await ctx.fx.unblock(2);
      }
      expect((await asUser(accessToken)).status).toBe(200); // INACTIVE may act
      await ctx.fx.activate(2);
    });

    it('blocking spends the refresh tokens: a refresh after the block is 401 even once unblocked', async () => {
      const user = await ctx.fx.loginAsUser();
      await ctx.fx.block(2);
      await ctx.fx.unblock(2);
      await ctx.fx.activate(2);
      expect((await refresh(user.refreshToken)).status).toBe(401);
    });

    it("a deleted user's token is 401 invalid_token", async () => {
      const { id } = await ctx.fx.newUser();
      const token = await tokenFor(id);
      expect((await asUser(token)).status).toBe(200);
      await ctx.fx.expect(204, 'DELETE', `/users/${id}`);
      expectInvalidToken(await asUser(token));
    });

    it('ADMIN is read from the current roles: demoted, a token claiming ADMIN is 403', async () => {
      const { id } = await ctx.fx.newUser();
      await ctx.fx.expect(204, 'PUT', `/users/${id}/roles/2`);
      const token = await ctx.server.ctx.tokens.sign(
        { sub: String(id), name: 'Temp Admin', role: 'ADMIN' },
        900,
        new Date(),
      );
      const action = () => ctx.fx.call('POST', '/admin/users/3/unblock', { token });
      expect((await action()).status).toBe(200);
      await ctx.fx.expect(204, 'DELETE', `/users/${id}/roles/2`);
      expect((await action()).status).toBe(403);
    });
  });

  describe('access tokens', () => {
    it('an expired token is 401 invalid_token', async () => {
      const token = await tokenFor(2, 60, new Date(Date.now() - 3_600_000));
      expectInvalidToken(await asUser(token));
    });

    it('a token signed with another secret is 401', async () => {
      const token = jwt.sign(
        { sub: '1', name: 'Ada Admin', role: 'ADMIN' },
        'another-secret-another-secret-0123456789',
        {
          algorithm: 'HS256',
          expiresIn: 900,
        },
      );
      expectInvalidToken(await asUser(token));
    });

    it('only HS256: HS512 with the right secret and alg "none" are 401', async () => {
      const hs512 = jwt.sign({ sub: '1', name: 'Ada Admin', role: 'ADMIN' }, TEST_JWT_SECRET, {
        algorithm: 'HS512',
        expiresIn: 900,
      });
      expectInvalidToken(await asUser(hs512));
      const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
      const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sub: '1', exp: Math.floor(Date.now() / 1000) + 900 })}.`;
      expectInvalidToken(await asUser(none));
    });

    it('the token carries sub, name, role, iat and exp (15 minutes)', async () => {
      const pair = await ctx.fx.loginAsUser();
      const claims = jwt.verify(pair.accessToken, TEST_JWT_SECRET, {
        algorithms: ['HS256'],
      }) as jwt.JwtPayload;
      expect(claims).toMatchObject({ sub: '2', name: 'Uma User', role: 'USER' });
      expect((claims.exp as number) - (claims.iat as number)).toBe(900);
      expect(pair.expiresIn).toBe(900);
    });

    it('another scheme is "no token": 401 without invalid_token', async () => {
      const res = await ctx.fx.call('GET', '/users/2', {
        token: null,
        headers: { Authorization: 'Basic dXNlcjpwYXNz' },
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    });
  });

  describe('refresh tokens over HTTP', () => {
    it('rotation: each refresh spends the old token and answers a new pair', async () => {
      const first = await ctx.fx.loginAsUser();
      const second = await refresh(first.refreshToken);
      expect(second.status).toBe(200);
      const pair = second.json<TokenPair>();
      expect(pair.refreshToken).not.toBe(first.refreshToken);
      expect((await asUser(pair.accessToken)).status).toBe(200);
      expect((await refresh(pair.refreshToken)).status).toBe(200);
    });

    it('reuse detection: a spent token is 401 and revokes its whole family', async () => {
      const first = await ctx.fx.loginAsUser();
      const second = (await refresh(first.refreshToken)).json<TokenPair>();
      const reuse = await refresh(first.refreshToken);
      expect(reuse.status).toBe(401);
      expect(reuse.headers.get('www-authenticate')).toBe('Bearer realm="api"');
      expect(reuse.json<Problem>().type).toBe('urn:apikit:problem:invalid-refresh-token');
      // The newer token of the family, never used, is revoked too.
      expect((await refresh(second.refreshToken)).status).toBe(401);
      // Another family (another login) is untouched.
      const other = await ctx.fx.loginAsUser();
      expect((await refresh(other.refreshToken)).status).toBe(200);
    });

    it('logout revokes; logout with an unknown token is 204 all the same', async () => {
      const pair = await ctx.fx.loginAsUser();
      const out = await ctx.fx.call('POST', '/auth/logout', {
        token: null,
        json: { refreshToken: pair.refreshToken },
      });
      expect(out.status).toBe(204);
      expect((await refresh(pair.refreshToken)).status).toBe(401);
      const unknown = await ctx.fx.call('POST', '/auth/logout', {
        token: null,
        json: { refreshToken: 'never-issued' },
      });
      expect(unknown.status).toBe(204);
    });

    it('answers under /auth carry Cache-Control: no-store', async () => {
      const pair = await ctx.fx.loginAsUser();
      expect((await refresh(pair.refreshToken)).headers.get('cache-control')).toBe('no-store');
      const wrong = await ctx.fx.call('POST', '/auth/login', {
        token: null,
        json: { username: 'nobody@example.com', password: 'x' },
      });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get('cache-control')).toBe('no-store');
    });
  });
}
