import type { Dataset } from '../../../core/domain/dataset.js';
import type { IdKind } from '../../../core/repository/repository.js';
import type { Query } from './postgres-reader.js';
import {
  ID_SEQUENCES,
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
} from './postgres-rows.js';

/** Rows per statement when a data set is loaded (a seed, a reset). */
const BATCH = 5_000;

/**
 * From this many rows, a table's plain indexes are dropped for the load and built again after
 * it: building an index once is about twice as quick as keeping it up to date row by row
 * (200,000 users: 4.1 s against 9.2 s).
 */
const REINDEX_FROM = 10_000;

/**
 * Empties the tables (TRUNCATE: a reset of a large data set in one step; other transactions
 * wait for it), loads the seed in batches through `json_populate_recordset`, takes its creation
 * time, moves each id sequence forward to the seed's counter, never back, and folds the range
 * counts (migration 0003). One transaction: a failure leaves the data set, and the indexes, as
 * they were.
 */
export async function replaceDataSet(query: Query, seed: Dataset): Promise<void> {
  // The range counts are emptied by a trigger of users' TRUNCATE (migration 0003).
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
  // The load counted its users in up to 64 rows per range: one per range for the pages.
  await query('SELECT apikit_fold_user_ranges()');
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
  const load = async () => {
    for (let start = 0; start < rows.length; start += BATCH) {
      const batch = JSON.stringify(rows.slice(start, start + BATCH));
      await query(
        `INSERT INTO ${table} (${columns})
         SELECT ${columns} FROM json_populate_recordset(NULL::${table}, $1::json)`,
        [batch],
      );
    }
  };
  if (rows.length < REINDEX_FROM) await load();
  else await withoutPlainIndexes(query, table, load);
}

/**
 * Runs `load` with the table's indexes that back no constraint dropped, then creates them
 * again from their own definitions (pg_indexes), whatever the migrations made them.
 */
async function withoutPlainIndexes(
  query: Query,
  table: string,
  load: () => Promise<void>,
): Promise<void> {
  const indexes = await query<{ name: string; definition: string }>(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
       FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = $1::regclass
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)`,
    [table],
  );
  for (const index of indexes) await query(`DROP INDEX ${quoteIdent(index.name)}`);
  await load();
  // CREATE INDEX refuses a table with deferred foreign-key checks pending: run them now.
  await query('SET CONSTRAINTS ALL IMMEDIATE');
  for (const index of indexes) await query(index.definition);
  await query('SET CONSTRAINTS ALL DEFERRED');
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
