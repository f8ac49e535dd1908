import type { QueryResultRow } from 'pg';
import type { OrderStatus } from '../../../core/domain/dataset.js';
import { ADMIN_ROLE_ID } from '../../../core/domain/role-ids.js';
import type {
  RepositoryReader,
  UserSlice,
  UserSortKey,
} from '../../../core/repository/repository.js';
import {
  IDEMPOTENCY_COLUMNS,
  ITEM_COLUMNS,
  ORDER_COLUMNS,
  TOKEN_COLUMNS,
  USER_COLUMNS,
  idempotencyRecord,
  itemRecord,
  orderRecord,
  toText,
  tokenRecord,
  userRecord,
  type IdempotencyRow,
  type ItemRow,
  type OrderRow,
  type TokenRow,
  type UserRow,
} from './postgres-rows.js';

/** Runs one statement: a pooled query, or one on the connection of a transaction. */
export type Query = <R extends QueryResultRow>(text: string, values?: unknown[]) => Promise<R[]>;

/**
 * The reader over PostgreSQL, on whatever `query` runs on. It answers exactly as the in-memory
 * reader does (core/repository/dataset-reader.ts): emails compared as JavaScript lower-cases
 * them, names and emails sorted by code point (collation "C" over UTF-8 is code point order),
 * a null age last in both directions, ties by id.
 *
 * @example
 * const reader = postgresReader((text, values) => pool.query(text, values).then((r) => r.rows));
 */
export function postgresReader(query: Query): RepositoryReader {
  async function one<R extends QueryResultRow>(text: string, values: unknown[]) {
    const rows = await query<R>(text, values);
    return rows[0];
  }
  return {
    async dataSetCreatedAt() {
      const row = await one<{ created_at: string }>('SELECT created_at FROM apikit_meta', []);
      if (row === undefined) throw new Error('the database holds no data set (not seeded)');
      return row.created_at;
    },
    async user(id) {
      const row = await one<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
      return row && userRecord(row);
    },
    async usersByEmail(email) {
      // Sorted here, not by ORDER BY id: on a small table the planner would walk the primary
      // key in order and filter, which under SERIALIZABLE locks every page of the table.
      const rows = await query<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE email_key = $1`, [
        toText(email.toLowerCase()),
      ]);
      return rows.map(userRecord).sort((a, b) => a.id - b.id);
    },
    listUsers: (slice) => listUsers(query, slice),
    async hasOtherUnblockedAdmin(exceptId) {
      const row = await one<{ found: boolean }>(
        `SELECT EXISTS (SELECT 1 FROM users WHERE id <> $1 AND status <> 'BLOCKED'
           AND role_ids @> '{${ADMIN_ROLE_ID}}') AS found`,
        [exceptId],
      );
      return row?.found === true;
    },
    async order(id) {
      const row = await one<OrderRow>(`SELECT ${ORDER_COLUMNS} FROM orders WHERE id = $1`, [id]);
      return row && orderRecord(row);
    },
    async ordersOfUser(userId, status?: OrderStatus) {
      const rows = await query<OrderRow>(
        `SELECT ${ORDER_COLUMNS} FROM orders
          WHERE user_id = $1 AND ($2::text IS NULL OR status = $2) ORDER BY id`,
        [userId, status ?? null],
      );
      return rows.map(orderRecord);
    },
    async orderItem(id) {
      const row = await one<ItemRow>(`SELECT ${ITEM_COLUMNS} FROM order_items WHERE id = $1`, [id]);
      return row && itemRecord(row);
    },
    async itemsOfOrder(orderId) {
      const rows = await query<ItemRow>(
        `SELECT ${ITEM_COLUMNS} FROM order_items WHERE order_id = $1 ORDER BY id`,
        [orderId],
      );
      return rows.map(itemRecord);
    },
    async refreshToken(hash) {
      const row = await one<TokenRow>(
        `SELECT ${TOKEN_COLUMNS} FROM refresh_tokens WHERE hash = $1`,
        [hash],
      );
      return row && tokenRecord(row);
    },
    async idempotency(scope) {
      const row = await one<IdempotencyRow>(
        `SELECT ${IDEMPOTENCY_COLUMNS} FROM idempotency WHERE scope = $1`,
        [toText(scope)],
      );
      return row && idempotencyRecord(row);
    },
  };
}

const ORDER_TERMS: Record<UserSortKey['field'], string> = {
  id: 'id',
  name: 'name COLLATE "C"',
  email: 'email COLLATE "C"',
  age: 'age',
  createdAt: 'created_at_ms',
};

/** ORDER BY of a slice: its keys in order (a null age last either way), then id ascending. */
export function orderByOf(sort: readonly UserSortKey[]): string {
  const terms = sort.map(({ field, direction }) => {
    const dir = direction === 'desc' ? 'DESC' : 'ASC';
    return `${ORDER_TERMS[field]} ${dir}${field === 'age' ? ' NULLS LAST' : ''}`;
  });
  return [...terms, 'id ASC'].join(', ');
}

/**
 * From this offset on, a page of the id order is placed through the range counts (migration
 * 0003) rather than by walking the index up to it; before it, the walk is as quick (about a
 * millisecond for 10,000 entries, against summing the ranges' rows).
 */
export const DEEP_PAGE_FROM = 10_000;

/**
 * One statement, so one snapshot even outside a transaction: the page and the total agree. The
 * total comes from the counts the triggers keep. The page's ids are found first (an index-only
 * scan up to the offset in the usual orders, or from the range holding the offset: see
 * pageIdsOf), then only its rows are read; the outer join keeps a row carrying the total when
 * the page is empty, and the outer ORDER BY restates the order.
 */
async function listUsers(
  query: Query,
  slice: UserSlice,
): Promise<{ users: ReturnType<typeof userRecord>[]; total: number }> {
  const where = statusWhere(slice);
  const orderBy = orderByOf(slice.sort);
  const values: unknown[] = [slice.offset, slice.limit];
  if (slice.status !== undefined) values.push(slice.status);
  const rows = await query<UserRow & { total: number; id: number | null }>(
    `SELECT page.*, counted.total
       FROM (SELECT coalesce(sum(n), 0)::bigint AS total FROM apikit_user_counts ${where}) AS counted
       LEFT JOIN LATERAL (
         SELECT ${USER_COLUMNS} FROM users WHERE id IN (${pageIdsOf(slice)})
       ) AS page ON true
      ORDER BY ${orderBy}`,
    values,
  );
  const total = rows[0]?.total ?? 0;
  const users = rows.filter((row) => row.id !== null).map(userRecord);
  return { users, total };
}

/**
 * The ids of a page ($1 its offset, $2 its size, $3 the status when filtered). In the id order
 * from {@link DEEP_PAGE_FROM} on: the users of each range are summed (one status's rows when
 * filtered), a running sum in the page's direction tells how many come before each range, and
 * the walk starts in the last range that starts at or before the offset, bounded by the next
 * range present (none between holds a user). Every other order walks its index.
 */
function pageIdsOf(slice: UserSlice): string {
  const where = statusWhere(slice);
  const first = slice.sort[0];
  if ((first !== undefined && first.field !== 'id') || slice.offset < DEEP_PAGE_FROM) {
    return `SELECT id FROM users ${where} ORDER BY ${orderByOf(slice.sort)} OFFSET $1 LIMIT $2`;
  }
  const desc = first?.direction === 'desc';
  const [towards, back] = desc ? ['DESC', 'ASC'] : ['ASC', 'DESC'];
  const within = desc
    ? 'id < coalesce(start.next_id, 9223372036854775807)'
    : 'id >= start.first_id';
  return `WITH ranges AS (
      SELECT first_id, sum(n) AS n FROM apikit_user_ranges ${where} GROUP BY first_id
    ), placed AS (
      SELECT first_id, lag(first_id) OVER (ORDER BY first_id DESC) AS next_id,
             sum(n) OVER (ORDER BY first_id ${towards}) - n AS before
        FROM ranges
    ), start AS (
      SELECT * FROM placed WHERE before <= $1 ORDER BY first_id ${back} LIMIT 1
    )
    SELECT walked.id FROM start, LATERAL (
      SELECT id FROM users ${where === '' ? 'WHERE' : `${where} AND`} ${within}
       ORDER BY id ${towards} OFFSET $1 - start.before LIMIT $2
    ) AS walked`;
}

/** The filter by status of a slice's statements ($3), or none. */
function statusWhere(slice: UserSlice): string {
  return slice.status === undefined ? '' : 'WHERE status = $3';
}
