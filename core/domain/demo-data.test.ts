import { describe, expect, it } from 'vitest';
import type { Dataset, OrderStatus, UserStatus } from './dataset.js';
import { buildDemoDataset } from './demo-data.js';
import { ADMIN_ROLE_ID, USER_ROLE_ID } from './role-ids.js';
import { fakePasswordHasher } from '../../test/support/domain/test-context.js';

const NOW = new Date('2026-11-01T00:00:00.000Z');
const build = (salted = true): Promise<Dataset> =>
  buildDemoDataset({
    passwords: fakePasswordHasher({ salted }),
    demoPasswords: { admin: 'admin-pass', user: 'user-pass' },
    now: NOW,
  });

function withoutHashes(dataset: Dataset): Dataset {
  const copy = structuredClone(dataset);
  for (const user of Object.values(copy.users)) user.passwordHash = user.passwordHash ? 'x' : null;
  return copy;
}

describe('buildDemoDataset', () => {
  it('is deterministic: two builds differ only in their salted hashes', async () => {
    const [a, b] = await Promise.all([build(), build()]);
    expect(a.users['1']?.passwordHash).not.toBe(b.users['1']?.passwordHash);
    expect(withoutHashes(a)).toEqual(withoutHashes(b));
  });

  it('has 36 users with ids 1..36, in every status', async () => {
    const data = await build();
    const users = Object.values(data.users);
    expect(users.map((user) => user.id)).toEqual(Array.from({ length: 36 }, (_, i) => i + 1));
    const statuses = new Set<UserStatus>(users.map((user) => user.status));
    expect([...statuses].sort()).toEqual(['ACTIVE', 'BLOCKED', 'INACTIVE']);
    expect(data.counters.users).toBe(36);
  });

  it('holds the two login accounts, and only them can log in', async () => {
    const data = await build(false);
    expect(data.users['1']).toMatchObject({
      name: 'Ada Admin',
      email: 'admin@example.com',
      status: 'ACTIVE',
      roleIds: [USER_ROLE_ID, ADMIN_ROLE_ID],
      passwordHash: 'fake$nosalt$admin-pass',
    });
    expect(data.users['2']).toMatchObject({
      name: 'Uma User',
      email: 'user@example.com',
      status: 'ACTIVE',
      roleIds: [USER_ROLE_ID],
      passwordHash: 'fake$nosalt$user-pass',
    });
    const others = Object.values(data.users).filter((user) => user.id > 2);
    expect(others.every((user) => user.passwordHash === null)).toBe(true);
    expect(others.every((user) => user.roleIds.join() === String(USER_ROLE_ID))).toBe(true);
  });

  it('has distinct emails (case-insensitively), names and plausible ages', async () => {
    const users = Object.values((await build()).users);
    expect(new Set(users.map((user) => user.email.toLowerCase())).size).toBe(36);
    expect(new Set(users.map((user) => user.name)).size).toBe(36);
    expect(users.every((user) => user.email.endsWith('@example.com'))).toBe(true);
    const ages = users.map((user) => user.age);
    expect(ages.filter((age) => age === null).length).toBeGreaterThanOrEqual(2);
    expect(ages.every((age) => age === null || (age >= 18 && age <= 80))).toBe(true);
  });

  it('leaves the emails of the spec’s request examples free', async () => {
    const emails = Object.values((await build()).users).map((user) => user.email);
    for (const free of [
      'grace@example.com',
      'alan@example.com',
      'linus@example.com',
      'uma.user@example.com',
    ]) {
      expect(emails).not.toContain(free);
    }
  });

  it('dates users and orders in early 2026, updatedAt never before createdAt', async () => {
    const data = await build();
    const records = [...Object.values(data.users), ...Object.values(data.orders)];
    for (const { createdAt, updatedAt } of records) {
      expect(createdAt >= '2026-01-01' && updatedAt < '2026-04-01').toBe(true);
      expect(Date.parse(updatedAt)).toBeGreaterThanOrEqual(Date.parse(createdAt));
      expect(new Date(createdAt).toISOString()).toBe(createdAt);
    }
    expect(data.createdAt).toBe(NOW.toISOString());
  });

  it('has about 60 orders in every status, over several users, categories 1-5, 1-3 items each', async () => {
    const data = await build();
    const orders = Object.values(data.orders);
    expect(orders).toHaveLength(60);
    expect(orders.map((order) => order.id)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
    const statuses = new Set<OrderStatus>(orders.map((order) => order.status));
    expect(statuses.size).toBe(5);
    expect(new Set(orders.map((order) => order.userId)).size).toBeGreaterThanOrEqual(10);
    expect(new Set(orders.map((order) => order.categoryId))).toEqual(new Set([1, 2, 3, 4, 5]));
    for (const order of orders) {
      const owner = data.users[String(order.userId)];
      expect(owner).toBeDefined();
      expect(Date.parse(order.createdAt)).toBeGreaterThan(Date.parse(owner?.createdAt ?? ''));
      const items = Object.values(data.orderItems).filter((item) => item.orderId === order.id);
      expect(items.length).toBeGreaterThanOrEqual(1);
      expect(items.length).toBeLessThanOrEqual(3);
    }
    // Ids grow with creation time, as if the orders had been placed through the API.
    const times = orders.map((order) => Date.parse(order.createdAt));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('matches the spec’s examples: Uma’s orders 7 and 8, items 12 and 13', async () => {
    const data = await build();
    expect(
      Object.values(data.orders)
        .filter((o) => o.userId === 2)
        .map((o) => o.id),
    ).toEqual([7, 8]);
    expect(data.orders['7']).toEqual({
      id: 7,
      userId: 2,
      product: 'The Pragmatic Programmer',
      categoryId: 1,
      status: 'PENDING',
      createdAt: '2026-01-16T10:00:00.000Z',
      updatedAt: '2026-01-16T10:00:00.000Z',
    });
    expect(data.orders['8']).toMatchObject({
      status: 'DELIVERED',
      updatedAt: '2026-01-24T16:40:00.000Z',
    });
    expect(data.orderItems['12']).toEqual({
      id: 12,
      orderId: 7,
      product: 'The Pragmatic Programmer',
      quantity: 1,
    });
    expect(data.orderItems['13']).toEqual({ id: 13, orderId: 7, product: 'Bookmark', quantity: 2 });
    expect(data.users['1']).toMatchObject({ age: 36, createdAt: '2026-01-15T09:30:00.000Z' });
    expect(data.users['2']).toMatchObject({ age: null, updatedAt: '2026-01-20T14:05:12.345Z' });
  });

  it('sets the counters to the highest ids and starts without tokens or idempotency records', async () => {
    const data = await build();
    expect(data.counters).toEqual({
      users: 36,
      orders: 60,
      orderItems: Math.max(...Object.values(data.orderItems).map((item) => item.id)),
    });
    expect(Object.keys(data.orderItems)).toHaveLength(data.counters.orderItems);
    expect(data.refreshTokens).toEqual({});
    expect(data.idempotency).toEqual({});
    expect(data.schemaVersion).toBe(1);
  });
});
