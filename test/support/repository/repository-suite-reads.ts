import { describe, expect, it } from 'vitest';
import { ADMIN_ROLE_ID, USER_ROLE_ID } from '../../../core/domain/role-ids.js';
import { SEED_TIME, testDataset, userRecord } from '../domain/test-dataset.js';
import type { RepositoryUnderTest } from './repository-suite.js';

/** Every reader method over the seed, outside transactions and in a snapshot. */
export function describeReads(subject: RepositoryUnderTest): void {
  const seed = testDataset();
  describe('reads', () => {
    it('reads the records of the seed back exactly, and nothing for unknown keys', async () => {
      const { repository } = subject;
      expect(await repository.dataSetCreatedAt()).toBe(SEED_TIME);
      expect(await repository.user(1)).toEqual(seed.users['1']);
      expect(await repository.user(3)).toEqual(seed.users['3']);
      expect(await repository.user(99)).toBeUndefined();
      expect(await repository.order(3)).toEqual(seed.orders['3']);
      expect(await repository.order(99)).toBeUndefined();
      expect(await repository.orderItem(2)).toEqual(seed.orderItems['2']);
      expect(await repository.orderItem(99)).toBeUndefined();
      expect(await repository.refreshToken('t2-spent')).toEqual(seed.refreshTokens['t2-spent']);
      expect(await repository.refreshToken('nope')).toBeUndefined();
      expect(await repository.idempotency('scope-1')).toEqual(seed.idempotency['scope-1']);
      expect(await repository.idempotency('nope')).toBeUndefined();
    });

    it('finds users by email compared lower-cased, lowest id first', async () => {
      const { repository } = subject;
      expect(await repository.usersByEmail('ADA@Example.COM')).toEqual([seed.users['1']]);
      expect(await repository.usersByEmail('nobody@example.com')).toEqual([]);
      await repository.transact((tx) =>
        tx.putUser(userRecord(7, { email: 'Émile.Ünïcode@Example.com' })),
      );
      const found = await repository.usersByEmail('émile.ünïcode@example.com');
      expect(found.map((user) => user.id)).toEqual([7]);
    });

    it('lists the orders of a user and the items of an order by id', async () => {
      const { repository } = subject;
      const ids = (records: Array<{ id: number }>) => records.map((record) => record.id);
      expect(ids(await repository.ordersOfUser(3))).toEqual([3, 4, 5]);
      expect(ids(await repository.ordersOfUser(3, 'SHIPPED'))).toEqual([3]);
      expect(ids(await repository.ordersOfUser(2, 'CANCELLED'))).toEqual([]);
      expect(ids(await repository.ordersOfUser(1))).toEqual([]);
      expect(await repository.itemsOfOrder(1)).toEqual([
        seed.orderItems['1'],
        seed.orderItems['2'],
      ]);
      expect(await repository.itemsOfOrder(3)).toEqual([]);
    });

    it('tells whether another unblocked ADMIN exists', async () => {
      const { repository } = subject;
      expect(await repository.hasOtherUnblockedAdmin(1)).toBe(false);
      expect(await repository.hasOtherUnblockedAdmin(2)).toBe(true);
      const admin = [USER_ROLE_ID, ADMIN_ROLE_ID];
      await repository.transact((tx) =>
        tx.putUser(userRecord(5, { roleIds: admin, status: 'BLOCKED' })),
      );
      expect(await repository.hasOtherUnblockedAdmin(1)).toBe(false);
      await repository.transact((tx) =>
        tx.putUser(userRecord(6, { roleIds: [ADMIN_ROLE_ID], status: 'INACTIVE' })),
      );
      expect(await repository.hasOtherUnblockedAdmin(1)).toBe(true);
      expect(await repository.hasOtherUnblockedAdmin(6)).toBe(true);
    });

    it('keeps a record as it was put: role order, password hash, headers, nulls', async () => {
      const { repository } = subject;
      const user = userRecord(8, { roleIds: [ADMIN_ROLE_ID, USER_ROLE_ID], passwordHash: 's$1' });
      const record = {
        scope: 'u8 POST /api/orders k',
        requestBody: '{"b":1,"a":2}',
        status: 201,
        headers: { location: '/api/orders/9', etag: '"x"', 'content-type': 'application/json' },
        body: '{"id":9}',
        createdAt: SEED_TIME,
        expiresAt: '2026-12-31T00:00:00.000Z',
      };
      await repository.transact(async (tx) => {
        await tx.putUser(user);
        await tx.putIdempotency(record);
      });
      expect(await repository.user(8)).toEqual(user);
      const read = await repository.idempotency(record.scope);
      expect(read).toEqual(record);
      expect(Object.keys(read?.headers ?? {})).toEqual(Object.keys(record.headers));
    });

    it('keeps U+0000 and U+0001 in strings, finds and sorts by them', async () => {
      const { repository } = subject;
      const nul = userRecord(5, { name: 'a\u0000b', email: 'Nul\u0000@Example.com' });
      const one = userRecord(6, { name: 'a\u0001', email: 'one\u0001@example.com' });
      const bare = userRecord(7, { name: 'a', email: 'a@example.com' });
      const order = { ...seed.orders['1']!, id: 9, product: 'p\u0000\u0001q' };
      const item = { id: 9, orderId: 9, product: '\u0000', quantity: 1 };
      const record = {
        ...seed.idempotency['scope-1']!,
        scope: 's\u0000k',
        requestBody: '{"a":"\u0000"}',
        body: '\u0001',
      };
      await repository.transact(async (tx) => {
        for (const user of [nul, one, bare]) await tx.putUser(user);
        await tx.putOrder(order);
        await tx.putOrderItem(item);
        await tx.putIdempotency(record);
      });
      expect(await repository.user(5)).toEqual(nul);
      expect(await repository.usersByEmail('nul\u0000@example.COM')).toEqual([nul]);
      expect(await repository.usersByEmail('nul@example.com')).toEqual([]);
      expect(await repository.order(9)).toEqual(order);
      expect(await repository.itemsOfOrder(9)).toEqual([item]);
      expect(await repository.idempotency('s\u0000k')).toEqual(record);
      const byName = await repository.listUsers({
        sort: [{ field: 'name', direction: 'asc' }],
        offset: 0,
        limit: 3,
      });
      // By code point: the capitals of the seed first, then "a" < "a\u0000b" < "a\u0001".
      expect(byName.users.map((user) => user.id)).toEqual([1, 2, 3]);
      const lower = await repository.listUsers({
        sort: [{ field: 'name', direction: 'desc' }],
        offset: 0,
        limit: 3,
      });
      expect(lower.users.map((user) => user.id)).toEqual([6, 5, 7]);
    });

    it('runs several reads on one snapshot', async () => {
      const { repository } = subject;
      const result = await repository.snapshot(async (reader) => {
        const order = await reader.order(1);
        const items = await reader.itemsOfOrder(1);
        const owner = await reader.user(order?.userId ?? 0);
        return { order, items: items.length, owner: owner?.name };
      });
      expect(result).toEqual({ order: seed.orders['1'], items: 2, owner: 'Bob' });
    });
  });
}
