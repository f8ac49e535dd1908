import type {
  Dataset,
  OrderItemRecord,
  OrderRecord,
  RefreshTokenRecord,
  UserRecord,
} from '../../../core/domain/dataset.js';
import { ADMIN_ROLE_ID, USER_ROLE_ID } from '../../../core/domain/role-ids.js';

/** When every record of the test data set was made and last changed. */
export const SEED_TIME = '2026-01-10T08:00:00.000Z';

/** A user record with sensible defaults (ACTIVE, holds USER, no password). */
export function userRecord(id: number, overrides: Partial<UserRecord> = {}): UserRecord {
  return {
    id,
    name: `User ${id}`,
    email: `user${id}@example.com`,
    age: 30,
    status: 'ACTIVE',
    createdAt: SEED_TIME,
    updatedAt: SEED_TIME,
    roleIds: [USER_ROLE_ID],
    passwordHash: null,
    ...overrides,
  };
}

/** An order record with defaults (PENDING, category 1). */
export function orderRecord(
  id: number,
  userId: number,
  overrides: Partial<OrderRecord> = {},
): OrderRecord {
  return {
    id,
    userId,
    product: `Product ${id}`,
    categoryId: 1,
    status: 'PENDING',
    createdAt: SEED_TIME,
    updatedAt: SEED_TIME,
    ...overrides,
  };
}

/** A refresh token record of a user. */
export function refreshToken(
  hash: string,
  userId: number,
  spentAt: string | null = null,
): RefreshTokenRecord {
  return {
    hash,
    userId,
    familyId: `family-${hash}`,
    createdAt: SEED_TIME,
    expiresAt: '2026-12-31T00:00:00.000Z',
    spentAt,
  };
}

function keyed<T extends { id: number }>(records: readonly T[]): Record<string, T> {
  return Object.fromEntries(records.map((record) => [String(record.id), record]));
}

/**
 * A small data set every test starts from (each gets its own copy):
 * - user 1 ADMIN (ACTIVE), 2 ACTIVE, 3 INACTIVE, 4 BLOCKED;
 * - orders 1 PENDING (items 1, 2) and 2 PAID (item 3) of user 2, 3 SHIPPED, 4 DELIVERED and
 *   5 CANCELLED of user 3 (no items);
 * - refresh tokens: `t1` of user 1, `t2` and `t2-spent` of user 2.
 */
export function testDataset(): Dataset {
  const users = [
    userRecord(1, {
      name: 'Ada',
      email: 'ada@example.com',
      roleIds: [USER_ROLE_ID, ADMIN_ROLE_ID],
    }),
    userRecord(2, { name: 'Bob', email: 'bob@example.com' }),
    userRecord(3, { name: 'Cy', email: 'cy@example.com', status: 'INACTIVE', age: null }),
    userRecord(4, { name: 'Dee', email: 'dee@example.com', status: 'BLOCKED' }),
  ];
  const orders = [
    orderRecord(1, 2),
    orderRecord(2, 2, { status: 'PAID' }),
    orderRecord(3, 3, { status: 'SHIPPED', categoryId: 2 }),
    orderRecord(4, 3, { status: 'DELIVERED' }),
    orderRecord(5, 3, { status: 'CANCELLED' }),
  ];
  const items: OrderItemRecord[] = [
    { id: 1, orderId: 1, product: 'Pen', quantity: 2 },
    { id: 2, orderId: 1, product: 'Ink', quantity: 1 },
    { id: 3, orderId: 2, product: 'Pad', quantity: 5 },
  ];
  const tokens = [
    refreshToken('t1', 1),
    refreshToken('t2', 2),
    refreshToken('t2-spent', 2, SEED_TIME),
  ];
  return {
    schemaVersion: 1,
    createdAt: SEED_TIME,
    counters: { users: 4, orders: 5, orderItems: 3 },
    users: keyed(users),
    orders: keyed(orders),
    orderItems: keyed(items),
    refreshTokens: Object.fromEntries(tokens.map((token) => [token.hash, token])),
    idempotency: {
      'scope-1': {
        scope: 'scope-1',
        requestBody: '{}',
        status: 201,
        headers: {},
        body: null,
        createdAt: SEED_TIME,
        expiresAt: '2026-12-31T00:00:00.000Z',
      },
    },
  };
}
