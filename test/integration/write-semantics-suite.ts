import { describe, expect, it } from 'vitest';
import type { UserDto } from './fixtures.js';
import type { SuiteContext } from './suite-context.js';

/**
 * Preconditions on unsafe methods (If-Match, If-None-Match) and the PUT, PATCH and DELETE
 * semantics they guard: replacement, PUT-create, PATCH `{}`, repeated DELETE, all-or-nothing.
 */
export function writeSemanticsSuite(ctx: SuiteContext): void {
  describe('preconditions on unsafe methods', () => {
    it('If-Match with the current ETag succeeds; a stale one is 412 and changes nothing', async () => {
      const user = await ctx.fx.newUser();
      const etag = await ctx.fx.etagOf(`/users/${user.id}`);
      const stale = await ctx.fx.call('PATCH', `/users/${user.id}`, {
        headers: { 'If-Match': '"stale"' },
        json: { name: 'Lost Update' },
      });
      expect(stale.status).toBe(412);
      const ok = await ctx.fx.call('PATCH', `/users/${user.id}`, {
        headers: { 'If-Match': etag },
        json: { name: 'Won' },
      });
      expect(ok.status).toBe(200);
      expect(ok.json()).toMatchObject({ name: 'Won' });
    });

    it('If-Match is compared strongly: W/ of the current tag is 412', async () => {
      const user = await ctx.fx.newUser();
      const etag = await ctx.fx.etagOf(`/users/${user.id}`);
      const res = await ctx.fx.call('DELETE', `/users/${user.id}`, {
        headers: { 'If-Match': `W/${etag}` },
      });
      expect(res.status).toBe(412);
    });

    it('If-Match: * matches any existing resource', async () => {
      const user = await ctx.fx.newUser();
      const res = await ctx.fx.call('PUT', `/users/${user.id}`, {
        headers: { 'If-Match': '*' },
        json: { name: 'Star', email: user.email },
      });
      expect(res.status).toBe(200);
    });

    it('If-None-Match: * on PUT to an existing user is 412', async () => {
      const user = await ctx.fx.newUser();
      const res = await ctx.fx.call('PUT', `/users/${user.id}`, {
        headers: { 'If-None-Match': '*' },
        json: { name: 'Again', email: user.email },
      });
      expect(res.status).toBe(412);
    });

    it('If-None-Match: * on PUT to an absent id creates (201)', async () => {
      const id = ctx.fx.createId();
      const res = await ctx.fx.call('PUT', `/users/${id}`, {
        headers: { 'If-None-Match': '*' },
        json: { name: 'Fresh', email: ctx.fx.uniqueEmail() },
      });
      expect(res.status).toBe(201);
    });

    it('If-Match on PUT to an absent id is 412 and creates nothing', async () => {
      const id = ctx.fx.createId();
      const res = await ctx.fx.call('PUT', `/users/${id}`, {
        headers: { 'If-Match': '*' },
        json: { name: 'Ghost', email: ctx.fx.uniqueEmail() },
      });
      expect(res.status).toBe(412);
      expect((await ctx.fx.call('GET', `/users/${id}`)).status).toBe(404);
    });

    it('If-Match on orders: a stale tag is 412, the current one works', async () => {
      const { userId, orderId } = await ctx.fx.userWithOrder();
      const path = `/users/${userId}/orders/${orderId}`;
      const etag = await ctx.fx.etagOf(path);
      expect(
        (
          await ctx.fx.call('PATCH', path, {
            headers: { 'If-Match': '"x"' },
            json: { status: 'PAID' },
          })
        ).status,
      ).toBe(412);
      expect(
        (
          await ctx.fx.call('PATCH', path, {
            headers: { 'If-Match': etag },
            json: { status: 'PAID' },
          })
        ).status,
      ).toBe(200);
    });
  });

  describe('PUT, PATCH and DELETE semantics', () => {
    it('PATCH {} is 200 and writes nothing: same ETag and updatedAt', async () => {
      const user = await ctx.fx.newUser();
      const before = await ctx.fx.call('GET', `/users/${user.id}`);
      const res = await ctx.fx.call('PATCH', `/users/${user.id}`, { json: {} });
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).toBe(before.headers.get('etag'));
      expect(res.json<UserDto>().updatedAt).toBe(before.json<UserDto>().updatedAt);
    });

    it('PUT resets an unsent age to null, keeps status and createdAt, ignores read-only fields', async () => {
      const user = await ctx.fx.newUser({ age: 44 });
      await ctx.fx.activate(user.id);
      const res = await ctx.fx.call('PUT', `/users/${user.id}`, {
        json: {
          id: 999,
          name: 'Round Trip',
          email: user.email,
          status: 'BLOCKED',
          createdAt: '2000-01-01T00:00:00Z',
        },
      });
      expect(res.status).toBe(200);
      expect(res.json()).toMatchObject({
        id: user.id,
        age: null,
        status: 'ACTIVE',
        createdAt: user.createdAt,
      });
      expect(res.headers.get('etag')).toBeNull();
    });

    it('PUT-create answers 201 with Location and moves the id counter past it', async () => {
      const id = ctx.fx.createId();
      const res = await ctx.fx.call('PUT', `/users/${id}`, {
        json: { name: 'At Id', email: ctx.fx.uniqueEmail() },
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('location')).toBe(`/api/v1/users/${id}`);
      const read = await ctx.fx.call('GET', `/users/${id}`);
      expect(read.json()).toEqual(res.json());
      const roles = await ctx.fx.call('GET', `/users/${id}/roles`);
      expect(roles.json()).toEqual([{ id: 1, name: 'USER' }]);
      expect((await ctx.fx.newUser()).id).toBeGreaterThan(id);
    });

    it("DELETE then DELETE: 204, then 404; the user's orders go with them", async () => {
      const { userId, orderId } = await ctx.fx.userWithOrder();
      expect((await ctx.fx.call('DELETE', `/users/${userId}`)).status).toBe(204);
      expect((await ctx.fx.call('DELETE', `/users/${userId}`)).status).toBe(404);
      expect((await ctx.fx.call('GET', `/orders/${orderId}`)).status).toBe(404);
    });

    it('DELETE of an order then DELETE again: 204, then 404', async () => {
      const { userId, orderId } = await ctx.fx.userWithOrder('PAID');
      const path = `/users/${userId}/orders/${orderId}`;
      expect((await ctx.fx.call('DELETE', path)).status).toBe(204);
      expect((await ctx.fx.call('DELETE', path)).status).toBe(404);
    });

    it('a PATCH is all or nothing: a legal status with an illegal product change is 409 and changes nothing', async () => {
      const { userId, orderId } = await ctx.fx.userWithOrder('PAID');
      const path = `/users/${userId}/orders/${orderId}`;
      const res = await ctx.fx.call('PATCH', path, {
        json: { status: 'SHIPPED', product: 'Other' },
      });
      expect(res.status).toBe(409);
      expect((await ctx.fx.call('GET', path)).json()).toMatchObject({
        status: 'PAID',
        product: 'Row product',
      });
    });
  });
}
