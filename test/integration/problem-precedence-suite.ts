import { describe, expect, it } from 'vitest';
import type { Problem } from './contract-checks.js';
import { exchange } from './exchange.js';
import { OVERSIZED_JSON } from './generic-rows.js';
import type { SuiteContext } from './suite-context.js';

/**
 * The contract's precedence of problems (its order of checks), each test failing two checks at
 * once and expecting the earlier one: unknown route 404 -> 405 -> 401 -> 403 -> 406 -> 413 ->
 * 415 -> 400 (path, query) -> 404 (resource) -> 412 -> 400 (body) -> 409 / 422. The 403 of who
 * may act on a resource needs the resource, so it is judged right after 404 (resource).
 */
export function problemPrecedenceSuite(ctx: SuiteContext): void {
  const problemType = (res: { json<T>(): T }) =>
    res.json<Problem>().type.replace('urn:apikit:problem:', '');

  describe('order of checks', () => {
    it('unknown route before 401: GET /api/v1/nope without a token is 404', async () => {
      const res = await ctx.fx.call('GET', '/nope', { token: null });
      expect(res.status).toBe(404);
    });

    it('405 before 401: DELETE /users without a token', async () => {
      const res = await ctx.fx.call('DELETE', '/users', { token: null });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
    });

    it('401 before 400: no token and a bad path id', async () => {
      const res = await ctx.fx.call('GET', '/users/abc', { token: null });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    });

    it('401 before 404 and 415: a garbage token on an absent user with a text/plain body', async () => {
      const res = await ctx.fx.call('PUT', `/users/${ctx.fx.absentId()}`, {
        token: 'garbage',
        headers: { 'Content-Type': 'text/plain' },
      });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    });

    it('403 before 406 and 400: a USER resetting with Accept: text/html and a bad body', async () => {
      const res = await ctx.fx.call('POST', '/admin/reset', {
        token: ctx.server.userToken,
        headers: { Accept: 'text/html' },
        json: { not: 'empty' },
      });
      expect(res.status).toBe(403);
    });

    it('406 before 400: bad Accept and malformed JSON', async () => {
      const res = await exchange({
        method: 'POST',
        url: `${ctx.server.api}/users`,
        headers: {
          Authorization: `Bearer ${ctx.server.adminToken}`,
          Accept: 'text/html',
          'Content-Type': 'application/json',
        },
        body: '{"name": ',
      });
      expect(res.status).toBe(406);
      expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    });

    it('406 before 413: bad Accept and an oversized body', async () => {
      const res = await ctx.fx.call('POST', '/users', {
        headers: { Accept: 'image/png', 'Content-Type': 'application/json' },
        json: JSON.parse(OVERSIZED_JSON),
      });
      expect(res.status).toBe(406);
    });

    it('413 before 415: an oversized text/plain body', async () => {
      const res = await exchange({
        method: 'POST',
        url: `${ctx.server.api}/users`,
        headers: { Authorization: `Bearer ${ctx.server.adminToken}`, 'Content-Type': 'text/plain' },
        body: 'x'.repeat(100 * 1024 + 1),
      });
      expect(res.status).toBe(413);
    });

    it('a body of exactly 100 KiB is not too large', async () => {
      const name = 'x'.repeat(100 * 1024 - JSON.stringify({ name: '' }).length);
      const body = JSON.stringify({ name });
      expect(body.length).toBe(100 * 1024);
      const res = await exchange({
        method: 'POST',
        url: `${ctx.server.api}/users`,
        headers: {
          Authorization: `Bearer ${ctx.server.adminToken}`,
          'Content-Type': 'application/json',
        },
        body,
      });
      expect(res.status).toBe(400); // judged on its content (name too long, email missing)
    });

    it('415 before 400 (path): a text/plain body to /users/abc', async () => {
      const res = await ctx.fx.call('PUT', '/users/abc', {
        headers: { 'Content-Type': 'text/plain' },
        json: {},
      });
      expect(res.status).toBe(415);
    });

    it('a charset other than UTF-8 is 415', async () => {
      const res = await ctx.fx.call('POST', '/users', {
        headers: { 'Content-Type': 'application/json; charset=iso-8859-1' },
        json: { name: 'Latin', email: ctx.fx.uniqueEmail() },
      });
      expect(res.status).toBe(415);
    });

    it('400 (path, query) before 404: an absent user with an unknown query parameter', async () => {
      const res = await ctx.fx.call('GET', `/users/${ctx.fx.absentId()}/orders?status=LOST`);
      expect(res.status).toBe(400);
      expect(res.json<Problem>().errors?.map((e) => e.pointer)).toEqual(['#/query/status']);
    });

    it('400 (path) before 404: /users/0 and /users/2^53 are 400, not 404', async () => {
      for (const id of ['0', '9007199254740992', '1.json', '-1', '01']) {
        const res = await ctx.fx.call('GET', `/users/${id}`);
        expect(res.status, id).toBe(400);
        expect(res.json<Problem>().errors?.map((e) => e.pointer)).toEqual(['#/path/id']);
      }
    });

    it('404 before 412: PATCH of an absent user with If-Match', async () => {
      const res = await ctx.fx.call('PATCH', `/users/${ctx.fx.absentId()}`, {
        headers: { 'If-Match': '"whatever"' },
        json: { name: 'x' },
      });
      expect(res.status).toBe(404);
    });

    it('404 before 400 (body): PATCH of an absent user with a bad body', async () => {
      const res = await ctx.fx.call('PATCH', `/users/${ctx.fx.absentId()}`, { json: { age: 1 } });
      expect(res.status).toBe(404);
    });

    it('403 (who may act on the resource) before 412: a USER changing an ADMIN with a stale If-Match', async () => {
      const { id } = await ctx.fx.newUser();
      await ctx.fx.expect(204, 'PUT', `/users/${id}/roles/2`);
      const stale = { 'If-Match': '"stale"' };
      const asUser = { token: ctx.server.userToken, headers: stale };
      const answers = [
        await ctx.fx.call('PATCH', `/users/${id}`, { ...asUser, json: { name: 'x' } }),
        await ctx.fx.call('PUT', `/users/${id}`, {
          ...asUser,
          json: { name: 'x', email: ctx.fx.uniqueEmail() },
        }),
        await ctx.fx.call('DELETE', `/users/${id}`, asUser),
        await ctx.fx.call('PATCH', `/users/${id}`, { ...asUser, json: { age: 1 } }),
      ];
      expect(answers.map((res) => res.status)).toEqual([403, 403, 403, 403]);
      expect(problemType(answers[0]!)).toBe('forbidden');
    });

    it('412 before 400 (body): a stale If-Match and a bad body', async () => {
      const user = await ctx.fx.newUser();
      const res = await ctx.fx.call('PATCH', `/users/${user.id}`, {
        headers: { 'If-Match': '"stale"' },
        json: { age: 1, name: '' },
      });
      expect(res.status).toBe(412);
    });

    it('400 (body) before 409: a duplicate email with an invalid age', async () => {
      const res = await ctx.fx.call('POST', '/users', {
        json: { name: 'Dup', email: 'admin@example.com', age: 3 },
      });
      expect(res.status).toBe(400);
      expect(res.json<Problem>().errors?.map((e) => e.pointer)).toEqual(['#/age']);
    });

    it('400 (body) before 422: an unknown category with an empty product', async () => {
      const user = await ctx.fx.newUser();
      const res = await ctx.fx.call('POST', `/users/${user.id}/orders`, {
        json: { product: '', categoryId: 99 },
      });
      expect(res.status).toBe(400);
    });

    it('malformed JSON is 400 malformed-json with pointer #', async () => {
      const res = await exchange({
        method: 'POST',
        url: `${ctx.server.api}/users`,
        headers: {
          Authorization: `Bearer ${ctx.server.adminToken}`,
          'Content-Type': 'application/json',
        },
        body: '{"name": "x",',
      });
      expect(res.status).toBe(400);
      expect(problemType(res)).toBe('malformed-json');
      expect(res.json<Problem>().errors?.map((e) => e.pointer)).toEqual(['#']);
    });

    it('a bearer token sent in two ways is 400, judged where 401 would be (before 406)', async () => {
      const res = await ctx.fx.call('GET', `/users?access_token=${ctx.server.adminToken}`, {
        headers: { Accept: 'text/html' },
      });
      expect(res.status).toBe(400);
      expect(res.json<Problem>().errors?.map((e) => e.pointer)).toEqual(['#/query/access_token']);
    });

    it('409 and 422 only for valid requests: a BLOCKED user ordering an unknown category is 409', async () => {
      const user = await ctx.fx.newUser();
      await ctx.fx.block(user.id);
      const res = await ctx.fx.call('POST', `/users/${user.id}/orders`, {
        json: { product: 'x', categoryId: 99 },
      });
      expect(res.status).toBe(409);
    });
  });
}
