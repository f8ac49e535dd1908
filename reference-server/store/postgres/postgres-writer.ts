import type { Dataset } from '../../../core/domain/dataset.js';
import type { IdKind, RepositoryWriter } from '../../../core/repository/repository.js';
import { postgresReader, type Query } from './postgres-reader.js';
import {
  IDEMPOTENCY_COLUMNS,
  ITEM_COLUMNS,
  ORDER_COLUMNS,
  TOKEN_COLUMNS,
  USER_COLUMNS,
  idempotencyRow,
  itemRow,
  orderRow,
  tokenRow,
  userRow,
  valuesOf,
} from './postgres-rows.js';

/** The sequence of each collection's ids. */
export const ID_SEQUENCES: Record<IdKind, string> = {
  users: 'apikit_users_id_seq',
  orders: 'apikit_orders_id_seq',
  orderItems: 'apikit_order_items_id_seq',
};

/** `INSERT ... ON CONFLICT (key) DO UPDATE`: adds the row or replaces the one with its key. */
function upsert(table: string, columns: string, key: string): string {
  const names = columns.split(', ');
  const placeholders = names.map((_, i) => `$${i + 1}`).join(', ');
  const updates = names
    .filter((name) => name !== key)
    .map((name) => `${name} = EXCLUDED.${name}`)
    .join(', ');
  return `INSERT INTO ${table} (${columns}) VALUES (${placeholders})
          ON CONFLICT (${key}) DO UPDATE SET ${updates}`;
}

const PUT_USER = upsert('users', USER_COLUMNS, 'id');
const PUT_ORDER = upsert('orders', ORDER_COLUMNS, 'id');
const PUT_ITEM = upsert('order_items', ITEM_COLUMNS, 'id');
const PUT_TOKEN = upsert('refresh_tokens', TOKEN_COLUMNS, 'hash');
const PUT_IDEMPOTENCY = upsert('idempotency', IDEMPOTENCY_COLUMNS, 'scope');

/** Rows per statement when a data set is loaded (a seed, a reset). */
const BATCH = 5_000;

/**
 * The writer of one PostgreSQL transaction (`query` runs on its connection). Deletes cascade
 * by the schema's foreign keys; ids come from sequences, which a rollback does not move back.
 *
 * @example
 * const tx = postgresWriter((text, values) => client.query(text, values).then((r) => r.rows));
 */
export function postgresWriter(query: Query, count: CountingQuery): RepositoryWriter {
  return {
    ...postgresReader(query),
    async nextId(kind) {
      const rows = await query<{ id: number }>('SELECT apikit_next_id($1) AS id', [
        ID_SEQUENCES[kind],
      ]);
      return Number(rows[0]?.id);
    },
    async reserveId(kind, id) {
      await query('SELECT apikit_reserve_id($1, $2)', [ID_SEQUENCES[kind], id]);
    },
    async putUser(user) {
      await query(PUT_USER, valuesOf(userRow(user), USER_COLUMNS));
    },
    async deleteUser(id) {
      await query('DELETE FROM users WHERE id = $1', [id]);
    },
    async putOrder(order) {
      await query(PUT_ORDER, valuesOf(orderRow(order), ORDER_COLUMNS));
    },
    async deleteOrder(id) {
      await query('DELETE FROM orders WHERE id = $1', [id]);
    },
    async putOrderItem(item) {
      await query(PUT_ITEM, valuesOf(itemRow(item), ITEM_COLUMNS));
    },
    async deleteItemsOfOrder(orderId) {
      await query('DELETE FROM order_items WHERE order_id = $1', [orderId]);
    },
    async putRefreshToken(record) {
      await query(PUT_TOKEN, valuesOf(tokenRow(record), TOKEN_COLUMNS));
    },
    async spendRefreshTokens(which, at) {
      const [column, value] =
        'familyId' in which ? ['family_id', which.familyId] : ['user_id', which.userId];
      return count(
        `UPDATE refresh_tokens SET spent_at = $2 WHERE ${column} = $1 AND spent_at IS NULL`,
        [value, at],
      );
    },
    async pruneExpiredFamilies(now) {
      await query(
        `DELETE FROM refresh_tokens WHERE family_id IN (
           SELECT family_id FROM refresh_tokens GROUP BY family_id
           HAVING max(expires_at_ms) <= $1)`,
        [now.getTime()],
      );
    },
    async putIdempotency(record) {
      await query(PUT_IDEMPOTENCY, valuesOf(idempotencyRow(record), IDEMPOTENCY_COLUMNS));
    },
    async pruneExpiredIdempotency(now) {
      await query('DELETE FROM idempotency WHERE expires_at_ms <= $1', [now.getTime()]);
    },
    replaceDataSet: (seed) => replaceDataSet(query, seed),
  };
}

/** Runs one statement and answers how many rows it changed. */
export type CountingQuery = (text: string, values: unknown[]) => Promise<number>;

/**
 * Empties the tables (TRUNCATE: a reset of a large data set in one step; other transactions
 * wait for it), loads the seed in batches through `json_populate_recordset`, takes its creation
 * time and moves each id sequence forward to the seed's counter, never back.
 */
async function replaceDataSet(query: Query, seed: Dataset): Promise<void> {
  await query(
    'TRUNCATE users, orders, order_items, refresh_tokens, idempotency, apikit_user_counts',
  );
  await insertAll(query, 'users', USER_COLUMNS, Object.values(seed.users).map(userRow));
  await insertAll(query, 'orders', ORDER_COLUMNS, Object.values(seed.orders).map(orderRow));
  await insertAll(query, 'order_items', ITEM_COLUMNS, Object.values(seed.orderItems).map(itemRow));
  await query(
    `INSERT INTO apikit_meta (singleton, created_at) VALUES (true, $1)
     ON CONFLICT (singleton) DO UPDATE SET created_at = EXCLUDED.created_at`,
    [seed.createdAt],
  );
  for (const kind of Object.keys(ID_SEQUENCES) as IdKind[]) {
    await query('SELECT apikit_reserve_id($1, $2)', [ID_SEQUENCES[kind], seed.counters[kind]]);
  }
}

/**
 * Loads a whole data set into empty tables, its refresh tokens and idempotency records too (a
 * new database's seed; replaceDataSet forgets those, as a reset does).
 */
export async function loadDataset(query: Query, seed: Dataset): Promise<void> {
  await replaceDataSet(query, seed);
  const tokens = Object.values(seed.refreshTokens).map(tokenRow);
  await insertAll(query, 'refresh_tokens', TOKEN_COLUMNS, tokens);
  const records = Object.values(seed.idempotency).map(idempotencyRow);
  await insertAll(query, 'idempotency', IDEMPOTENCY_COLUMNS, records);
}

async function insertAll(
  query: Query,
  table: string,
  columns: string,
  rows: object[],
): Promise<void> {
  for (let start = 0; start < rows.length; start += BATCH) {
    const batch = JSON.stringify(rows.slice(start, start + BATCH));
    await query(
      `INSERT INTO ${table} (${columns})
       SELECT ${columns} FROM json_populate_recordset(NULL::${table}, $1::json)`,
      [batch],
    );
  }
}
