import type { RepositoryWriter } from '../../../core/repository/repository.js';
import { CLAIM_OWNER_LOCK } from './migrate.js';
import { replaceDataSet } from './postgres-bulk.js';
import { notePrune, type PendingPrunes } from './postgres-housekeeping.js';
import { postgresReader, type Query } from './postgres-reader.js';
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
  valuesOf,
} from './postgres-rows.js';

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
const AFTER_COLUMNS = IDEMPOTENCY_COLUMNS.split(', ').length;
/**
 * A claim: the upsert, taking over only an expired record or a claim of another instance
 * whose lock on its number is free: its session ended, so it died (decision 0109). The lock
 * is asked shared and for the transaction only, so that claims judging one holder at once do
 * not fail each other. No read before it: under SERIALIZABLE a lookup locks the key's btree
 * page, where neighbouring keys of the same caller are claimed too, and those claims then
 * failed each other as read/write dependencies.
 */
const CLAIM_IDEMPOTENCY = `${PUT_IDEMPOTENCY}
  WHERE idempotency.expires_at_ms <= $${AFTER_COLUMNS + 1}
     OR (idempotency.status = 0 AND idempotency.owner <> $${AFTER_COLUMNS + 2}
         AND pg_try_advisory_xact_lock_shared(${CLAIM_OWNER_LOCK}, idempotency.owner))
  RETURNING scope`;
/**
 * An answer in place of this instance's claim, in the write's transaction: only while the row
 * is still that claim. The same one-statement upsert as the claim, for the same reason.
 */
const SETTLE_IDEMPOTENCY = `${PUT_IDEMPOTENCY}
  WHERE idempotency.status = 0 AND idempotency.owner IS NOT DISTINCT FROM $${AFTER_COLUMNS + 1}
    AND idempotency.created_at = $${AFTER_COLUMNS + 2}
    AND idempotency.request_body = $${AFTER_COLUMNS + 3}
  RETURNING scope`;

/**
 * The writer of one PostgreSQL transaction (`query` runs on its connection). Deletes cascade
 * by the schema's foreign keys; ids come from sequences, which a rollback does not move back.
 * Prunes are noted in `pending`, for the repository to run once the transaction committed.
 * `owner` is this instance's number as a holder of claims (null: claims held by lease alone).
 *
 * @example
 * const tx = postgresWriter((text, values) => client.query(text, values).then((r) => r.rows));
 */
export function postgresWriter(
  query: Query,
  count: CountingQuery,
  pending: PendingPrunes = {},
  owner: number | null = null,
): RepositoryWriter {
  const reader = postgresReader(query);
  return {
    ...reader,
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
      notePrune(pending, 'ranges', new Date());
    },
    async deleteUser(id) {
      await query('DELETE FROM users WHERE id = $1', [id]);
      notePrune(pending, 'ranges', new Date());
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
    // Housekeeping, done once the transaction committed (see postgres-housekeeping.ts).
    pruneExpiredFamilies: async (now) => notePrune(pending, 'families', now),
    async putIdempotency(record) {
      await query(PUT_IDEMPOTENCY, valuesOf(idempotencyRow(record), IDEMPOTENCY_COLUMNS));
    },
    async claimIdempotency(record, now) {
      const row = { ...idempotencyRow(record), owner };
      const values = [...valuesOf(row, IDEMPOTENCY_COLUMNS), now.getTime(), owner];
      if ((await query(CLAIM_IDEMPOTENCY, values)).length > 0) return undefined;
      // A live record holds the scope (the upsert locked it): answered as it is.
      return reader.idempotency(record.scope);
    },
    async settleIdempotency(claim, record) {
      const claimed = idempotencyRow(claim);
      const values = [
        ...valuesOf(idempotencyRow(record), IDEMPOTENCY_COLUMNS),
        owner,
        claimed.created_at,
        claimed.request_body,
      ];
      return (await query(SETTLE_IDEMPOTENCY, values)).length > 0;
    },
    pruneExpiredIdempotency: async (now) => notePrune(pending, 'idempotency', now),
    replaceDataSet: (seed) => replaceDataSet(query, seed),
  };
}

/** Runs one statement and answers how many rows it changed. */
export type CountingQuery = (text: string, values: unknown[]) => Promise<number>;
