import type { Dataset } from '../domain/dataset.js';

/**
 * The smallest valid data set: no records, counters at zero. A seed for store tests and for
 * anything that wants a store without the demo data.
 *
 * @example
 * const store = await createStore({ memory: true, seed: () => emptyDataset() });
 */
export function emptyDataset(createdAt = '2025-01-01T00:00:00.000Z'): Dataset {
  return {
    schemaVersion: 1,
    createdAt,
    counters: { users: 0, orders: 0, orderItems: 0 },
    users: {},
    orders: {},
    orderItems: {},
    refreshTokens: {},
    idempotency: {},
  };
}
