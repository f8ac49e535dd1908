import { describe, expect, it } from 'vitest';
import type { Dataset, UserRecord } from './dataset.js';
import { MAX_ARRAY_INDEX } from '../repository/in-id-order.js';
import { createTestContext, ADMIN_PRINCIPAL } from '../../test/support/domain/test-context.js';
import { testDataset, userRecord } from '../../test/support/domain/test-dataset.js';
import { listUsers, type UserListQuery, type UserSortKey } from './users-query.js';
import { replaceUser } from './users-service.js';

/** Users whose sort keys collide on purpose; inserted out of id order. */
function sortDataset(): Dataset {
  const data = testDataset();
  const users: UserRecord[] = [
    userRecord(6, {
      name: 'bob',
      email: 'b@example.com',
      age: 40,
      createdAt: '2026-01-03T00:00:00.000Z',
    }),
    userRecord(1, {
      name: 'Zed',
      email: 'z@example.com',
      age: null,
      createdAt: '2026-01-01T00:00:00.000Z',
    }),
    userRecord(3, {
      name: 'Bob',
      email: 'B2@example.com',
      age: 40,
      createdAt: '2026-01-02T00:00:00.000Z',
    }),
    userRecord(2, {
      name: 'Émile',
      email: 'e@example.com',
      age: 25,
      createdAt: '2026-01-05T00:00:00.000Z',
      status: 'BLOCKED',
    }),
    userRecord(5, {
      name: 'Bob',
      email: 'a@example.com',
      age: null,
      createdAt: '2026-01-02T00:00:00.000Z',
    }),
    userRecord(4, {
      name: 'Ann',
      email: 'A@example.com',
      age: 18,
      createdAt: '2026-01-04T00:00:00.000Z',
      status: 'INACTIVE',
    }),
  ];
  data.users = Object.fromEntries(users.map((user) => [String(user.id), user]));
  data.counters.users = 6;
  return data;
}

async function ids(query: Partial<UserListQuery>, data = sortDataset()): Promise<number[]> {
  const { ctx } = createTestContext(data);
  return (await listUsers(ctx, { page: 0, size: 100, sort: [], ...query })).content.map(
    (u) => u.id,
  );
}

const asc = (field: UserSortKey['field']): UserSortKey => ({ field, direction: 'asc' });
const desc = (field: UserSortKey['field']): UserSortKey => ({ field, direction: 'desc' });

describe('listUsers: filter and sort', () => {
  it.each([
    ['no sort: by id', [], [1, 2, 3, 4, 5, 6]],
    ['id desc', [desc('id')], [6, 5, 4, 3, 2, 1]],
    ['name asc by code point (B < Z < b < É), ties by id', [asc('name')], [4, 3, 5, 1, 6, 2]],
    ['name desc, ties still by id ascending', [desc('name')], [2, 6, 1, 3, 5, 4]],
    ['email asc by code point (upper case first)', [asc('email')], [4, 3, 5, 6, 2, 1]],
    ['age asc, null last', [asc('age')], [4, 2, 3, 6, 1, 5]],
    ['age desc, null still last', [desc('age')], [3, 6, 2, 4, 1, 5]],
    ['createdAt asc', [asc('createdAt')], [1, 3, 5, 6, 4, 2]],
    ['createdAt desc', [desc('createdAt')], [2, 4, 6, 3, 5, 1]],
    ['name asc then age desc', [asc('name'), desc('age')], [4, 3, 5, 1, 6, 2]],
    ['age asc then name desc', [asc('age'), desc('name')], [4, 2, 6, 3, 1, 5]],
    ['createdAt asc then email desc', [asc('createdAt'), desc('email')], [1, 5, 3, 6, 4, 2]],
  ] as const)('%s', async (_case, sort, expected) => {
    expect(await ids({ sort: [...sort] })).toEqual(expected);
  });

  it.each([
    ['ACTIVE', [1, 3, 5, 6]],
    ['INACTIVE', [4]],
    ['BLOCKED', [2]],
  ] as const)('status %s', async (status, expected) => {
    expect(await ids({ status })).toEqual(expected);
  });

  it('filters, then sorts', async () => {
    expect(await ids({ status: 'ACTIVE', sort: [desc('age')] })).toEqual([3, 6, 1, 5]);
  });

  it('lists by id even beyond the array-index range', async () => {
    const tc = createTestContext(testDataset());
    const huge = MAX_ARRAY_INDEX + 5;
    await replaceUser(tc.ctx, ADMIN_PRINCIPAL, huge, { name: 'Huge', email: 'h@example.com' });
    await replaceUser(tc.ctx, ADMIN_PRINCIPAL, MAX_ARRAY_INDEX + 1, {
      name: 'Big',
      email: 'g@example.com',
    });
    const page = await listUsers(tc.ctx, { page: 0, size: 10, sort: [] });
    expect(page.content.map((u) => u.id)).toEqual([1, 2, 3, 4, MAX_ARRAY_INDEX + 1, huge]);
  });
});

describe('listUsers: paging', () => {
  it.each([
    // [page, size, ids on the page, totalPages]
    [0, 2, [1, 2], 3],
    [1, 2, [3, 4], 3],
    [2, 2, [5, 6], 3],
    [3, 2, [], 3],
    [1000, 2, [], 3],
    [0, 4, [1, 2, 3, 4], 2],
    [1, 4, [5, 6], 2],
    [0, 6, [1, 2, 3, 4, 5, 6], 1],
    [0, 100, [1, 2, 3, 4, 5, 6], 1],
    [1, 100, [], 1],
    [5, 1, [6], 6],
  ])('page %i of size %i', async (page, size, expected, totalPages) => {
    const { ctx } = createTestContext(sortDataset());
    expect(await listUsers(ctx, { page, size, sort: [] })).toEqual({
      content: expected.map((id) => expect.objectContaining({ id })),
      totalElements: 6,
      totalPages,
      page,
      size,
    });
  });

  it('no match: zero pages, empty content', async () => {
    const data = sortDataset();
    data.users = {};
    const { ctx } = createTestContext(data);
    expect(await listUsers(ctx, { page: 0, size: 20, sort: [] })).toEqual({
      content: [],
      totalElements: 0,
      totalPages: 0,
      page: 0,
      size: 20,
    });
  });

  it('totals count the filtered users only', async () => {
    const { ctx } = createTestContext(sortDataset());
    const page = await listUsers(ctx, { status: 'ACTIVE', page: 1, size: 3, sort: [] });
    expect(page.content.map((u) => u.id)).toEqual([6]);
    expect([page.totalElements, page.totalPages]).toEqual([4, 2]);
  });

  it('returns UserDto only: no password hash, no role ids', async () => {
    const { ctx } = createTestContext(sortDataset());
    const [first] = (await listUsers(ctx, { page: 0, size: 1, sort: [] })).content;
    expect(Object.keys(first ?? {})).toEqual([
      'id',
      'name',
      'email',
      'age',
      'status',
      'createdAt',
      'updatedAt',
    ]);
  });
});
