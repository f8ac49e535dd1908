import { describe, expect, it } from 'vitest';
import type { Problem } from './contract-checks.js';
import { exchange } from './exchange.js';
import type { Order, UserDto } from './fixtures.js';
import type { SuiteContext } from './suite-context.js';

/**
 * Paging with its Link header, sorting, filtering and expand.
 */
export function listingSuite(ctx: SuiteContext): void {
  interface UserPage {
    content: UserDto[];
    totalElements: number;
    totalPages: number;
    page: number;
    size: number;
  }

  /** The Link header as `rel -> target`. */
  function links(header: string | null): Record<string, string> {
    const out: Record<string, string> = {};
    for (const part of (header ?? '').split(/,\s*(?=<)/)) {
      const m = /^<([^>]+)>;\s*rel="([a-z]+)"$/.exec(part.trim());
      if (m) out[m[2] as string] = m[1] as string;
    }
    return out;
  }

  const page = async (query: string) => {
    const res = await ctx.fx.expect(200, 'GET', `/users?${query}`);
    return { res, body: res.json<UserPage>(), links: links(res.headers.get('link')) };
  };

  /** Code-point comparison, as the contract orders strings. */
  const byCodePoint = (a: string, b: string) => {
    const x = [...a].map((c) => c.codePointAt(0) as number);
    const y = [...b].map((c) => c.codePointAt(0) as number);
    for (let i = 0; i < Math.min(x.length, y.length); i++)
      if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
    return x.length - y.length;
  };

  describe('paging', () => {
    it('the first page has first, next and last, no prev; other parameters are kept', async () => {
      const { body, links: rel } = await page('status=ACTIVE&size=4&sort=name,desc');
      expect(Object.keys(rel).sort()).toEqual(['first', 'last', 'next']);
      const next = new URL(rel.next as string, ctx.server.url);
      expect(next.pathname).toBe('/api/v1/users');
      expect(Object.fromEntries(next.searchParams)).toEqual({
        status: 'ACTIVE',
        size: '4',
        sort: 'name,desc',
        page: '1',
      });
      expect(body.totalPages).toBe(Math.ceil(body.totalElements / 4));
      expect(new URL(rel.last as string, ctx.server.url).searchParams.get('page')).toBe(
        String(body.totalPages - 1),
      );
    });

    it('following next walks every page exactly once, then the last page has no next', async () => {
      const seen: number[] = [];
      let target: string | undefined = '/api/v1/users?size=7';
      let last: Record<string, string> = {};
      for (let hops = 0; target && hops < 20; hops++) {
        const res = await exchange({
          method: 'GET',
          url: ctx.server.url + target,
          headers: { Authorization: `Bearer ${ctx.server.adminToken}` },
        });
        seen.push(...res.json<UserPage>().content.map((u) => u.id));
        last = links(res.headers.get('link'));
        target = last.next;
      }
      expect(Object.keys(last).sort()).toEqual(['first', 'last', 'prev']);
      const all = (await page('size=100')).body;
      expect(seen).toEqual(all.content.map((u) => u.id));
      expect(new Set(seen).size).toBe(all.totalElements);
    });

    it('a middle page has all four links', async () => {
      const { links: rel } = await page('size=5&page=2');
      expect(Object.keys(rel).sort()).toEqual(['first', 'last', 'next', 'prev']);
      expect(new URL(rel.prev as string, ctx.server.url).searchParams.get('page')).toBe('1');
    });

    it('a page past the end is 200 with empty content, and no prev or next', async () => {
      const { body, links: rel } = await page('size=10&page=99');
      expect(body.content).toEqual([]);
      expect(body.page).toBe(99);
      expect(Object.keys(rel).sort()).toEqual(['first', 'last']);
    });

    it('defaults: page 0, size 20, by id ascending', async () => {
      const { body } = await page('');
      expect([body.page, body.size, body.content.length]).toEqual([0, 20, 20]);
      const ids = body.content.map((u) => u.id);
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
    });

    it.each(['page=05', 'size=1e3', 'size=+5', 'size=20.0', 'page=-1', 'size=0', 'size=101'])(
      '%s is 400 pointing at the parameter',
      async (query) => {
        const res = await ctx.fx.call('GET', `/users?${query}`);
        expect(res.status).toBe(400);
        const name = query.split('=')[0] as string;
        expect(res.json<Problem>().errors?.map((e) => e.pointer)).toEqual([`#/query/${name}`]);
      },
    );
  });

  describe('sort and filter', () => {
    it('status filters the users', async () => {
      const { body } = await page('status=BLOCKED&size=100');
      expect(body.content.map((u) => u.id)).toEqual([9, 17, 25, 32]);
    });

    it('sort=name orders by code point', async () => {
      const names = (await page('sort=name&size=100')).body.content.map((u) => u.name);
      expect(names).toEqual([...names].sort(byCodePoint));
    });

    it('sort=age,desc puts null ages last, ties by id ascending', async () => {
      const users = (await page('sort=age,desc&size=100')).body.content;
      const firstNull = users.findIndex((u) => u.age === null);
      expect(firstNull).toBeGreaterThan(0);
      expect(users.slice(firstNull).every((u) => u.age === null)).toBe(true);
      for (let i = 1; i < users.length; i++) {
        const [a, b] = [users[i - 1] as UserDto, users[i] as UserDto];
        if (a.age !== null && b.age !== null) {
          expect(a.age >= b.age).toBe(true);
          if (a.age === b.age) expect(a.id).toBeLessThan(b.id);
        }
      }
      const nulls = users.slice(firstNull).map((u) => u.id);
      expect(nulls).toEqual([...nulls].sort((a, b) => a - b));
    });

    it('sort=age (ascending) also puts null ages last', async () => {
      const users = (await page('sort=age&size=100')).body.content;
      const firstNull = users.findIndex((u) => u.age === null);
      expect(users.slice(firstNull).every((u) => u.age === null)).toBe(true);
    });

    it('sort is repeatable: status-filtered, by email descending then id', async () => {
      const users = (await page('status=ACTIVE&sort=email,desc&sort=id&size=100')).body.content;
      const emails = users.map((u) => u.email);
      expect(emails).toEqual([...emails].sort(byCodePoint).reverse());
    });

    it("a user's orders filter by status, by id", async () => {
      const res = await ctx.fx.expect(200, 'GET', '/users/1/orders?status=PAID');
      const orders = res.json<Order[]>();
      expect(orders.length).toBeGreaterThan(0);
      expect(orders.every((o) => o.status === 'PAID' && o.userId === 1)).toBe(true);
      expect(orders.map((o) => o.id)).toEqual([...orders.map((o) => o.id)].sort((a, b) => a - b));
    });
  });

  describe('expand', () => {
    it('without expand, an order has neither user nor items', async () => {
      const order = (await ctx.fx.expect(200, 'GET', '/orders/7')).json<Order>();
      expect(order.user).toBeUndefined();
      expect(order.items).toBeUndefined();
    });

    it('expand=user,items embeds both, with its own ETag', async () => {
      const plain = await ctx.fx.expect(200, 'GET', '/orders/7');
      const res = await ctx.fx.expect(200, 'GET', '/orders/7?expand=user,items');
      const order = res.json<Order>();
      expect(order.user).toEqual({ id: 2, name: 'Uma User' });
      expect(order.items?.map((i) => i.id)).toEqual([12, 13]);
      expect(res.headers.get('etag')).not.toBe(plain.headers.get('etag'));
    });

    it('expand=items alone embeds only the items', async () => {
      const order = (await ctx.fx.expect(200, 'GET', '/orders/7?expand=items')).json<Order>();
      expect(order.user).toBeUndefined();
      expect(order.items?.every((i) => i.orderId === 7)).toBe(true);
    });

    it('expand exists only on GET /orders/{id}', async () => {
      const res = await ctx.fx.call('GET', '/users/2/orders/7?expand=user');
      expect(res.status).toBe(400);
      expect(res.json<Problem>().errors?.map((e) => e.pointer)).toEqual(['#/query/expand']);
    });
  });
}
