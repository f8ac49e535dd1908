import { describe, expect, it } from 'vitest';
import { exchange, type Observed } from './exchange.js';
import type { SuiteContext } from './suite-context.js';

/**
 * HEAD and conditional GET: If-None-Match, If-Modified-Since, 304, and which answers carry
 * which validators.
 */
export function conditionalRequestsSuite(ctx: SuiteContext): void {
  /** Headers that differ between any two responses (per request or per connection). */
  const PER_RESPONSE = new Set(['date', 'x-request-id', 'connection', 'keep-alive']);
  const comparable = (res: Observed) =>
    Object.fromEntries([...res.headers].filter(([name]) => !PER_RESPONSE.has(name)));

  describe('HEAD', () => {
    it.each([
      '/users/2',
      '/users?size=3&page=1',
      '/roles',
      '/orders/7?expand=user,items',
      '/users/2/roles',
    ])('HEAD %s answers the GET headers without a body', async (path) => {
      const get = await ctx.fx.call('GET', path);
      const head = await ctx.fx.call('HEAD', path);
      expect(head.status).toBe(200);
      expect(head.body).toBeNull();
      expect(comparable(head)).toEqual(comparable(get));
    });

    it('HEAD needs the same token as GET', async () => {
      const res = await ctx.fx.call('HEAD', '/users/2', { token: null });
      expect(res.status).toBe(401);
      expect(res.body).toBeNull();
    });

    it('HEAD with a matching If-None-Match is 304', async () => {
      const etag = await ctx.fx.etagOf('/users/2');
      const res = await ctx.fx.call('HEAD', '/users/2', { headers: { 'If-None-Match': etag } });
      expect(res.status).toBe(304);
    });
  });

  describe('conditional GET', () => {
    it('If-None-Match: 304 with ETag, Cache-Control, Vary, X-Request-Id, CORS, no body', async () => {
      const get = await ctx.fx.call('GET', '/users/2');
      const etag = get.headers.get('etag') as string;
      const res = await ctx.fx.call('GET', '/users/2', {
        headers: { 'If-None-Match': `"other", ${etag}`, Origin: 'https://app.example' },
      });
      expect(res.status).toBe(304);
      expect(res.body).toBeNull();
      expect(res.headers.get('etag')).toBe(etag);
      expect(res.headers.get('cache-control')).toBe('private, no-cache');
      expect(res.headers.get('vary')).toContain('Authorization');
      expect(res.headers.get('x-request-id')).toBeTruthy();
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('If-None-Match compares weakly: W/ of a strong tag matches', async () => {
      const etag = await ctx.fx.etagOf('/users/2');
      const res = await ctx.fx.call('GET', '/users/2', {
        headers: { 'If-None-Match': `W/${etag}` },
      });
      expect(res.status).toBe(304);
    });

    it('If-Modified-Since equal to Last-Modified is 304; one second earlier is 200', async () => {
      const get = await ctx.fx.call('GET', '/users/2');
      const lastModified = get.headers.get('last-modified') as string;
      const same = await ctx.fx.call('GET', '/users/2', {
        headers: { 'If-Modified-Since': lastModified },
      });
      expect(same.status).toBe(304);
      expect(same.headers.get('etag')).toBe(get.headers.get('etag'));
      const earlier = new Date(Date.parse(lastModified) - 1000).toUTCString();
      const older = await ctx.fx.call('GET', '/users/2', {
        headers: { 'If-Modified-Since': earlier },
      });
      expect(older.status).toBe(200);
    });

    it('If-None-Match wins over If-Modified-Since', async () => {
      const get = await ctx.fx.call('GET', '/users/2');
      const res = await ctx.fx.call('GET', '/users/2', {
        headers: {
          'If-None-Match': '"not-it"',
          'If-Modified-Since': get.headers.get('last-modified') as string,
        },
      });
      expect(res.status).toBe(200);
    });

    it('a change gives a new ETag, so the old one no longer gives 304', async () => {
      const user = await ctx.fx.newUser();
      const etag = await ctx.fx.etagOf(`/users/${user.id}`);
      await ctx.fx.expect(200, 'PATCH', `/users/${user.id}`, { json: { name: 'Changed' } });
      const res = await ctx.fx.call('GET', `/users/${user.id}`, {
        headers: { 'If-None-Match': etag },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('etag')).not.toBe(etag);
    });

    it('single resources carry a strong ETag and Last-Modified; lists a weak ETag and none', async () => {
      const one = await ctx.fx.call('GET', '/users/2');
      expect(one.headers.get('etag')).toMatch(/^"/);
      expect(one.headers.get('last-modified')).toBeTruthy();
      for (const path of ['/users', '/users/2/orders', '/users/2/roles']) {
        const list = await ctx.fx.call('GET', path);
        expect(list.headers.get('etag'), path).toMatch(/^W\/"/);
        expect(list.headers.get('last-modified'), path).toBeNull();
      }
    });

    it("the catalogs' lists take the data set's creation time, as a category does", async () => {
      const created = (await ctx.fx.call('GET', '/categories/1')).headers.get('last-modified');
      expect(created).toBeTruthy();
      for (const path of ['/roles', '/categories']) {
        const list = await ctx.fx.call('GET', path);
        expect(list.headers.get('etag'), path).toMatch(/^W\/"/);
        expect(list.headers.get('last-modified'), path).toBe(created);
        const same = await ctx.fx.call('GET', path, {
          headers: { 'If-Modified-Since': created as string },
        });
        expect(same.status, path).toBe(304);
      }
    });

    it("an order item takes its order's updatedAt as Last-Modified", async () => {
      const order = await ctx.fx.call('GET', '/users/2/orders/7');
      const item = await ctx.fx.call('GET', '/order-items/12');
      expect(item.json()).toMatchObject({ orderId: 7 });
      expect(item.headers.get('last-modified')).toBe(order.headers.get('last-modified'));
    });
  });

  it('201 and PATCH 200 carry validators that a conditional GET accepts', async () => {
    const created = await ctx.fx.call('POST', '/users', {
      json: { name: 'Validated', email: ctx.fx.uniqueEmail() },
    });
    const etag = created.headers.get('etag') as string;
    const res = await exchange({
      method: 'GET',
      url: ctx.server.url + (created.headers.get('location') as string),
      headers: { Authorization: `Bearer ${ctx.server.adminToken}`, 'If-None-Match': etag },
    });
    expect(res.status).toBe(304);
  });
}
