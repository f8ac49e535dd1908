import type { Dataset } from '../domain/dataset.js';
import type { PasswordHasher } from '../domain/ports.js';
import { ADMIN_ROLE_ID, USER_ROLE_ID } from '../domain/role-ids.js';
import type { CheckedDataSet } from './check-data-set.js';

/**
 * The store's data set from a checked data set of your own: passwords hashed (salted, by the
 * runtime's hasher), roles as catalog ids, counters at the highest ids, no refresh tokens or
 * idempotency records, dated `now` (the catalogs' Last-Modified).
 *
 * @example
 * const dataset = await buildDataSet(checked.data, { passwords, now: new Date() });
 */
export async function buildDataSet(
  data: CheckedDataSet,
  options: { passwords: PasswordHasher; now: Date },
): Promise<Dataset> {
  const hashes = await Promise.all(
    data.users.map((user) =>
      user.password === null ? null : options.passwords.hash(user.password),
    ),
  );
  const roleIds = { USER: USER_ROLE_ID, ADMIN: ADMIN_ROLE_ID } as const;
  const highest = (records: { id: number }[]) =>
    records.reduce((max, record) => Math.max(max, record.id), 0);
  return {
    schemaVersion: 1,
    createdAt: options.now.toISOString(),
    counters: {
      users: highest(data.users),
      orders: highest(data.orders),
      orderItems: highest(data.items),
    },
    users: Object.fromEntries(
      data.users.map(({ roles, password: _password, ...user }, index) => [
        String(user.id),
        {
          ...user,
          roleIds: roles.map((role) => roleIds[role]).sort((a, b) => a - b),
          passwordHash: hashes[index] ?? null,
        },
      ]),
    ),
    orders: Object.fromEntries(data.orders.map((order) => [String(order.id), { ...order }])),
    orderItems: Object.fromEntries(data.items.map((item) => [String(item.id), { ...item }])),
    refreshTokens: {},
    idempotency: {},
  };
}
