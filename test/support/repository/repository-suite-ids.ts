import { describe, expect, it } from 'vitest';
import type { IdKind } from '../../../core/repository/repository.js';
import { testDataset, userRecord } from '../domain/test-dataset.js';
import type { RepositoryUnderTest } from './repository-suite.js';

/** Ids are handed out once: not again after a delete, a rollback, a reservation or a reset. */
export function describeIds(subject: RepositoryUnderTest): void {
  const next = (kind: IdKind) => subject.repository.transact((tx) => tx.nextId(kind));

  describe('ids', () => {
    it('continues after the seed, per collection', async () => {
      expect(await next('users')).toBe(5);
      expect(await next('users')).toBe(6);
      expect(await next('orders')).toBe(6);
      expect(await next('orderItems')).toBe(4);
    });

    it('hands out distinct ids within one transaction', async () => {
      const ids = await subject.repository.transact(async (tx) => [
        await tx.nextId('users'),
        await tx.nextId('users'),
        await tx.nextId('users'),
      ]);
      expect(ids).toEqual([5, 6, 7]);
    });

    it('never reuses an id: after a delete, after a rolled-back transaction', async () => {
      const { repository } = subject;
      const id = await repository.transact(async (tx) => {
        const fresh = await tx.nextId('users');
        await tx.putUser(userRecord(fresh));
        return fresh;
      });
      await repository.transact((tx) => tx.deleteUser(id));
      expect(await next('users')).toBe(id + 1);
      const attempt = repository.transact(async (tx) => {
        await tx.nextId('users');
        throw new Error('rolled back');
      });
      await expect(attempt).rejects.toThrow('rolled back');
      expect(await next('users')).toBe(id + 3);
    });

    it('moves past a reserved id, never back', async () => {
      const { repository } = subject;
      await repository.transact((tx) => tx.reserveId('orders', 40));
      expect(await next('orders')).toBe(41);
      await repository.transact((tx) => tx.reserveId('orders', 10));
      expect(await next('orders')).toBe(42);
      const attempt = repository.transact(async (tx) => {
        await tx.reserveId('orders', 60);
        throw new Error('rolled back');
      });
      await expect(attempt).rejects.toThrow('rolled back');
      expect(await next('orders')).toBeGreaterThan(42);
    });

    it('moves forward to a new data set counters, never back', async () => {
      const { repository } = subject;
      await repository.transact((tx) => tx.reserveId('users', 20));
      const lower = testDataset();
      await repository.transact((tx) => tx.replaceDataSet(lower));
      expect(await next('users')).toBe(21);
      const higher = testDataset();
      higher.counters = { users: 50, orders: 60, orderItems: 70 };
      await repository.transact((tx) => tx.replaceDataSet(higher));
      expect(await next('users')).toBe(51);
      expect(await next('orders')).toBe(61);
      expect(await next('orderItems')).toBe(71);
    });
  });
}
