import { describe, expect, it } from 'vitest';
import type { UserRecord } from '../../../core/domain/dataset.js';
import { compareUsers } from '../../../core/repository/compare-users.js';
import type { UserSortKey } from '../../../core/repository/repository.js';
import { testDataset, userRecord } from '../domain/test-dataset.js';
import type { RepositoryUnderTest } from './repository-suite.js';

/**
 * Users whose names and emails differ only where orders do: accents, case, emoji (beyond the
 * BMP: UTF-16 would put it before U+FF21), a full-width letter; ages with nulls and ties.
 */
const EXTRA: UserRecord[] = [
  userRecord(5, { name: 'Émile', email: 'emile@example.com', age: 41 }),
  userRecord(6, { name: 'émile', email: 'Emile2@example.com', age: null, status: 'INACTIVE' }),
  userRecord(7, { name: 'Zoë', email: 'zoe@example.com', age: 30 }),
  userRecord(8, { name: 'zed', email: 'zed@example.com', age: 18 }),
  userRecord(9, { name: '😀 Smile', email: '😀@example.com', age: 30 }),
  userRecord(10, { name: 'Ａda', email: 'ａda@example.com', age: null }),
  userRecord(11, { name: 'Ada', email: 'ada2@example.com', age: 99, status: 'BLOCKED' }),
  userRecord(12, {
    name: 'Bob',
    email: 'Bob2@example.com',
    age: 30,
    createdAt: '2025-06-01T00:00:00.000Z',
  }),
  userRecord(13, { name: 'Ad', email: 'ad@example.com', createdAt: '2026-03-01T12:00:00.000Z' }),
];

const SORTS: UserSortKey[][] = [
  [{ field: 'name', direction: 'asc' }],
  [{ field: 'name', direction: 'desc' }],
  [{ field: 'email', direction: 'asc' }],
  [{ field: 'email', direction: 'desc' }],
  [{ field: 'age', direction: 'asc' }],
  [{ field: 'age', direction: 'desc' }],
  [{ field: 'createdAt', direction: 'desc' }],
  [{ field: 'id', direction: 'desc' }],
  [
    { field: 'age', direction: 'desc' },
    { field: 'name', direction: 'asc' },
  ],
  [
    { field: 'createdAt', direction: 'asc' },
    { field: 'age', direction: 'asc' },
    { field: 'email', direction: 'desc' },
  ],
];

/** listUsers: filter, the exact sort order of compareUsers, offset, limit and the total. */
export function describeUserLists(subject: RepositoryUnderTest): void {
  const all = [...Object.values(testDataset().users), ...EXTRA];
  const ids = (users: UserRecord[]) => users.map((user) => user.id);

  async function addExtra(): Promise<void> {
    await subject.repository.transact(async (tx) => {
      for (const user of EXTRA) await tx.putUser(user);
    });
  }

  describe('listUsers', () => {
    it('lists by id without sort keys, cut at offset and limit, with the total', async () => {
      const { repository } = subject;
      expect(await repository.listUsers({ sort: [], offset: 0, limit: 10 })).toEqual({
        users: Object.values(testDataset().users),
        total: 4,
      });
      const page = await repository.listUsers({ sort: [], offset: 1, limit: 2 });
      expect({ ids: ids(page.users), total: page.total }).toEqual({ ids: [2, 3], total: 4 });
      const past = await repository.listUsers({ sort: [], offset: 10, limit: 5 });
      expect(past).toEqual({ users: [], total: 4 });
    });

    it('keeps the totals through status changes, replacements and deletes', async () => {
      const { repository } = subject;
      const total = async (status?: 'ACTIVE' | 'INACTIVE' | 'BLOCKED') =>
        (await repository.listUsers({ status, sort: [], offset: 0, limit: 1 })).total;
      const bob = testDataset().users['2']!;
      await repository.transact(async (tx) => {
        await tx.putUser({ ...bob, status: 'BLOCKED' });
        await tx.putUser({ ...bob, status: 'INACTIVE', name: 'Bobby' });
        await tx.putUser(userRecord(9, { status: 'INACTIVE' }));
        await tx.putUser({ ...testDataset().users['1']!, name: 'Ada Lovelace' });
      });
      expect([await total(), await total('ACTIVE'), await total('INACTIVE')]).toEqual([5, 1, 3]);
      await repository.transact(async (tx) => {
        await tx.deleteUser(3);
        await tx.deleteUser(9);
        await tx.deleteUser(99);
      });
      expect([await total(), await total('INACTIVE'), await total('BLOCKED')]).toEqual([3, 1, 1]);
      const rolledBack = repository.transact(async (tx) => {
        await tx.putUser(userRecord(10));
        throw new Error('rolled back');
      });
      await expect(rolledBack).rejects.toThrow('rolled back');
      expect(await total()).toBe(3);
    });

    it('filters by status, the total counting the filtered users', async () => {
      await addExtra();
      const page = await subject.repository.listUsers({
        status: 'ACTIVE',
        sort: [],
        offset: 1,
        limit: 3,
      });
      const active = all.filter((user) => user.status === 'ACTIVE');
      expect(ids(page.users)).toEqual(ids(active).slice(1, 4));
      expect(page.total).toBe(active.length);
      const none = await subject.repository.listUsers({
        status: 'BLOCKED',
        sort: [],
        offset: 5,
        limit: 3,
      });
      expect(none).toEqual({ users: [], total: 2 });
    });

    it.each(SORTS.map((sort) => [sort.map((k) => `${k.field} ${k.direction}`).join(', '), sort]))(
      'sorts by %s exactly as compareUsers does',
      async (_, sort) => {
        await addExtra();
        const expected = ids([...all].sort(compareUsers(sort as UserSortKey[])));
        const whole = await subject.repository.listUsers({
          sort: sort as UserSortKey[],
          offset: 0,
          limit: 100,
        });
        expect(ids(whole.users)).toEqual(expected);
        const page = await subject.repository.listUsers({
          sort: sort as UserSortKey[],
          offset: 3,
          limit: 4,
        });
        expect({ ids: ids(page.users), total: page.total }).toEqual({
          ids: expected.slice(3, 7),
          total: all.length,
        });
      },
    );

    it('orders names by code point: case, accents, full-width, emoji; a null age last', async () => {
      await addExtra();
      const byName = await subject.repository.listUsers({
        sort: [{ field: 'name', direction: 'asc' }],
        offset: 0,
        limit: 100,
      });
      expect(byName.users.map((user) => user.name)).toEqual([
        'Ad',
        'Ada',
        'Ada',
        'Bob',
        'Bob',
        'Cy',
        'Dee',
        'Zoë',
        'zed',
        'Émile',
        'émile',
        'Ａda',
        '😀 Smile',
      ]);
      for (const direction of ['asc', 'desc'] as const) {
        const byAge = await subject.repository.listUsers({
          sort: [{ field: 'age', direction }],
          offset: 0,
          limit: 100,
        });
        expect(ids(byAge.users).slice(-3)).toEqual([3, 6, 10]);
      }
    });
  });
}
