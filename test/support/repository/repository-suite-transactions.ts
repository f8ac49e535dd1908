import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../../core/domain/store.js';
import { orderRecord, testDataset, userRecord } from '../domain/test-dataset.js';
import type { RepositoryUnderTest } from './repository-suite.js';

class Refused extends Error {}

/** transact: read-your-writes, all or nothing, cascades, replacing, close. */
export function describeTransactions(subject: RepositoryUnderTest): void {
  const seed = testDataset();
  describe('transactions', () => {
    it('sees its own writes before the commit, and answers what work returned', async () => {
      const { repository } = subject;
      const seen = await repository.transact(async (tx) => {
        await tx.putUser(userRecord(5, { email: 'New@Example.com' }));
        await tx.putOrder(orderRecord(6, 5));
        await tx.putOrderItem({ id: 4, orderId: 6, product: 'Cup', quantity: 3 });
        await tx.deleteOrder(1);
        return {
          user: (await tx.user(5))?.email,
          byEmail: (await tx.usersByEmail('new@example.com')).map((user) => user.id),
          total: (await tx.listUsers({ sort: [], offset: 0, limit: 1 })).total,
          orders: (await tx.ordersOfUser(5)).map((order) => order.id),
          items: (await tx.itemsOfOrder(6)).map((item) => item.id),
          deleted: await tx.order(1),
        };
      });
      expect(seen).toEqual({
        user: 'New@Example.com',
        byEmail: [5],
        total: 5,
        orders: [6],
        items: [4],
        deleted: undefined,
      });
      expect((await repository.user(5))?.email).toBe('New@Example.com');
      expect(await repository.orderItem(4)).toEqual({
        id: 4,
        orderId: 6,
        product: 'Cup',
        quantity: 3,
      });
    });

    it('rolls everything back when work throws, and rethrows what it threw', async () => {
      const { repository } = subject;
      const refusal = new Refused('no');
      const attempt = repository.transact(async (tx) => {
        await tx.putUser(userRecord(5, { email: 'gone@example.com' }));
        await tx.putUser({ ...seed.users['2']!, name: 'Changed' });
        await tx.deleteUser(3);
        await tx.deleteItemsOfOrder(2);
        await tx.putRefreshToken({ ...seed.refreshTokens['t1']!, hash: 't9' });
        await tx.spendRefreshTokens({ userId: 1 }, '2026-02-01T00:00:00.000Z');
        await tx.putIdempotency({ ...seed.idempotency['scope-1']!, scope: 'scope-9' });
        await tx.pruneExpiredIdempotency(new Date('2030-01-01T00:00:00.000Z'));
        throw refusal;
      });
      await expect(attempt).rejects.toBe(refusal);
      expect(await repository.user(5)).toBeUndefined();
      expect(await repository.usersByEmail('gone@example.com')).toEqual([]);
      expect(await repository.user(2)).toEqual(seed.users['2']);
      expect(await repository.user(3)).toEqual(seed.users['3']);
      expect(await repository.ordersOfUser(3)).toHaveLength(3);
      expect(await repository.itemsOfOrder(2)).toEqual([seed.orderItems['3']]);
      expect(await repository.refreshToken('t9')).toBeUndefined();
      expect(await repository.refreshToken('t1')).toEqual(seed.refreshTokens['t1']);
      expect(await repository.idempotency('scope-1')).toEqual(seed.idempotency['scope-1']);
      expect(await repository.idempotency('scope-9')).toBeUndefined();
    });

    it('rolls back a replaced data set too', async () => {
      const { repository } = subject;
      const other = { ...testDataset(), createdAt: '2027-01-01T00:00:00.000Z', users: {} };
      const attempt = repository.transact(async (tx) => {
        await tx.replaceDataSet({ ...other, orders: {}, orderItems: {} });
        throw new Refused('no');
      });
      await expect(attempt).rejects.toBeInstanceOf(Refused);
      expect(await repository.dataSetCreatedAt()).toBe(seed.createdAt);
      expect(await repository.user(1)).toEqual(seed.users['1']);
      expect(await repository.refreshToken('t1')).toEqual(seed.refreshTokens['t1']);
    });

    it('deletes a user with their orders, the items and their refresh tokens', async () => {
      const { repository } = subject;
      await repository.transact((tx) => tx.deleteUser(2));
      expect(await repository.user(2)).toBeUndefined();
      expect(await repository.order(1)).toBeUndefined();
      expect(await repository.order(2)).toBeUndefined();
      for (const id of [1, 2, 3]) expect(await repository.orderItem(id)).toBeUndefined();
      expect(await repository.refreshToken('t2')).toBeUndefined();
      expect(await repository.refreshToken('t2-spent')).toBeUndefined();
      expect(await repository.refreshToken('t1')).toEqual(seed.refreshTokens['t1']);
      expect(await repository.ordersOfUser(3)).toHaveLength(3);
      expect(await repository.usersByEmail('bob@example.com')).toEqual([]);
      expect(await repository.idempotency('scope-1')).toEqual(seed.idempotency['scope-1']);
    });

    it('deletes an order with its items, and the items of an order alone', async () => {
      const { repository } = subject;
      await repository.transact((tx) => tx.deleteOrder(1));
      expect(await repository.order(1)).toBeUndefined();
      expect(await repository.itemsOfOrder(1)).toEqual([]);
      expect(await repository.orderItem(3)).toEqual(seed.orderItems['3']);
      await repository.transact((tx) => tx.deleteItemsOfOrder(2));
      expect(await repository.itemsOfOrder(2)).toEqual([]);
      expect(await repository.order(2)).toEqual(seed.orders['2']);
    });

    it('replaces a user, an order and an item whole; a changed email moves', async () => {
      const { repository } = subject;
      const bob = { ...seed.users['2']!, email: 'Robert@Example.com', age: null };
      const order = { ...seed.orders['1']!, status: 'PAID' as const, updatedAt: 'x' };
      await repository.transact(async (tx) => {
        await tx.putUser(bob);
        await tx.putOrder(order);
        await tx.putOrderItem({ ...seed.orderItems['1']!, quantity: 9 });
      });
      expect(await repository.user(2)).toEqual(bob);
      expect(await repository.usersByEmail('bob@example.com')).toEqual([]);
      expect(await repository.usersByEmail('robert@example.com')).toEqual([bob]);
      expect(await repository.order(1)).toEqual(order);
      expect((await repository.orderItem(1))?.quantity).toBe(9);
    });

    it('replaces the data set: records, creation time; tokens and idempotency forgotten', async () => {
      const { repository } = subject;
      const next = testDataset();
      delete next.users['4'];
      next.users['2'] = { ...next.users['2']!, name: 'Bobby' };
      next.createdAt = '2026-05-05T05:05:05.000Z';
      await repository.transact((tx) => tx.replaceDataSet(next));
      expect(await repository.dataSetCreatedAt()).toBe(next.createdAt);
      expect(await repository.user(4)).toBeUndefined();
      expect((await repository.user(2))?.name).toBe('Bobby');
      expect((await repository.listUsers({ sort: [], offset: 0, limit: 9 })).total).toBe(3);
      expect(await repository.itemsOfOrder(1)).toHaveLength(2);
      expect(await repository.refreshToken('t1')).toBeUndefined();
      expect(await repository.idempotency('scope-1')).toBeUndefined();
    });

    it('refuses transactions once closed, with StoreUnavailableError', async () => {
      const { repository } = subject;
      await repository.close();
      await expect(repository.transact((tx) => tx.user(1))).rejects.toBeInstanceOf(
        StoreUnavailableError,
      );
    });
  });
}
