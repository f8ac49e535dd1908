import type {
  IdempotencyRecord,
  OrderItemRecord,
  OrderRecord,
  OrderStatus,
  RefreshTokenRecord,
  UserRecord,
  UserStatus,
} from '../../../core/domain/dataset.js';
import type { IdKind } from '../../../core/repository/repository.js';

/**
 * Records to rows and back: the one place that knows the column names. A row's keys are its
 * columns, so the same object serves a parameter list and `json_populate_recordset` (bulk).
 */

/** The sequence of each collection's ids. */
export const ID_SEQUENCES: Record<IdKind, string> = {
  users: 'apikit_users_id_seq',
  orders: 'apikit_orders_id_seq',
  orderItems: 'apikit_order_items_id_seq',
};

/**
 * PostgreSQL's `text` cannot hold U+0000, which JSON strings can: it is stored as U+0001 U+0001,
 * and U+0001 itself as U+0001 U+0002. The code keeps the order of code points (what sorting by
 * name or email compares), and strings without either character are stored as they are.
 */
export function toText(value: string): string {
  if (!/[\u0000\u0001]/.test(value)) return value;
  return value.replace(/[\u0000\u0001]/g, (c) =>
    c === '\u0000' ? '\u0001\u0001' : '\u0001\u0002',
  );
}

/** The string {@link toText} stored. */
export function fromText(value: string): string {
  if (!value.includes('\u0001')) return value;
  return value.replace(/\u0001[\u0001\u0002]/g, (pair) =>
    pair === '\u0001\u0001' ? '\u0000' : '\u0001',
  );
}

export const USER_COLUMNS =
  'id, name, email, email_key, age, status, created_at, created_at_ms, updated_at, role_ids, password_hash';
export const ORDER_COLUMNS = 'id, user_id, product, category_id, status, created_at, updated_at';
export const ITEM_COLUMNS = 'id, order_id, product, quantity';
export const TOKEN_COLUMNS =
  'hash, user_id, family_id, created_at, expires_at, expires_at_ms, spent_at';
export const IDEMPOTENCY_COLUMNS =
  'scope, request_body, status, headers, body, created_at, expires_at, expires_at_ms, owner';

export interface UserRow {
  id: number;
  name: string;
  email: string;
  email_key: string;
  age: number | null;
  status: string;
  created_at: string;
  created_at_ms: number;
  updated_at: string;
  role_ids: number[];
  password_hash: string | null;
}

export function userRow(user: UserRecord): UserRow {
  return {
    id: user.id,
    name: toText(user.name),
    email: toText(user.email),
    email_key: toText(user.email.toLowerCase()),
    age: user.age,
    status: user.status,
    created_at: user.createdAt,
    created_at_ms: Date.parse(user.createdAt),
    updated_at: user.updatedAt,
    role_ids: user.roleIds,
    password_hash: user.passwordHash,
  };
}

export function userRecord(row: UserRow): UserRecord {
  return {
    id: row.id,
    name: fromText(row.name),
    email: fromText(row.email),
    age: row.age,
    status: row.status as UserStatus,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    roleIds: row.role_ids,
    passwordHash: row.password_hash,
  };
}

export interface OrderRow {
  id: number;
  user_id: number;
  product: string;
  category_id: number;
  status: string;
  created_at: string;
  updated_at: string;
}

export function orderRow(order: OrderRecord): OrderRow {
  return {
    id: order.id,
    user_id: order.userId,
    product: toText(order.product),
    category_id: order.categoryId,
    status: order.status,
    created_at: order.createdAt,
    updated_at: order.updatedAt,
  };
}

export function orderRecord(row: OrderRow): OrderRecord {
  return {
    id: row.id,
    userId: row.user_id,
    product: fromText(row.product),
    categoryId: row.category_id,
    status: row.status as OrderStatus,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export interface ItemRow {
  id: number;
  order_id: number;
  product: string;
  quantity: number;
}

export function itemRow(item: OrderItemRecord): ItemRow {
  return {
    id: item.id,
    order_id: item.orderId,
    product: toText(item.product),
    quantity: item.quantity,
  };
}

export function itemRecord(row: ItemRow): OrderItemRecord {
  return {
    id: row.id,
    orderId: row.order_id,
    product: fromText(row.product),
    quantity: row.quantity,
  };
}

export interface TokenRow {
  hash: string;
  user_id: number;
  family_id: string;
  created_at: string;
  expires_at: string;
  expires_at_ms: number;
  spent_at: string | null;
}

export function tokenRow(token: RefreshTokenRecord): TokenRow {
  return {
    hash: token.hash,
    user_id: token.userId,
    family_id: token.familyId,
    created_at: token.createdAt,
    expires_at: token.expiresAt,
    expires_at_ms: Date.parse(token.expiresAt),
    spent_at: token.spentAt,
  };
}

export function tokenRecord(row: TokenRow): RefreshTokenRecord {
  return {
    hash: row.hash,
    userId: row.user_id,
    familyId: row.family_id,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    spentAt: row.spent_at,
  };
}

export interface IdempotencyRow {
  scope: string;
  request_body: string;
  status: number;
  headers: Record<string, string>;
  body: string | null;
  created_at: string;
  expires_at: string;
  expires_at_ms: number;
  /** The number of the instance holding a claim (migration 0004); null on answers. */
  owner: number | null;
}

export function idempotencyRow(record: IdempotencyRecord): IdempotencyRow {
  return {
    scope: toText(record.scope),
    request_body: toText(record.requestBody),
    status: record.status,
    headers: record.headers,
    body: record.body === null ? null : toText(record.body),
    created_at: record.createdAt,
    expires_at: record.expiresAt,
    expires_at_ms: Date.parse(record.expiresAt),
    // Another store's owner (a JSON file's process) names no instance here.
    owner: /^\d{1,9}$/.test(record.owner ?? '') ? Number(record.owner) : null,
  };
}

export function idempotencyRecord(row: IdempotencyRow): IdempotencyRecord {
  return {
    scope: fromText(row.scope),
    requestBody: fromText(row.request_body),
    status: row.status,
    headers: row.headers,
    body: row.body === null ? null : fromText(row.body),
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    ...(row.owner === null ? {} : { owner: String(row.owner) }),
  };
}

/** The values of `row` in the order of `columns` (a column list as above). */
export function valuesOf(row: object, columns: string): unknown[] {
  const values = row as Record<string, unknown>;
  return columns.split(', ').map((column) => {
    const value = values[column];
    // json columns: node-postgres would send an object as JSON anyway, arrays it would not.
    return column === 'headers' ? JSON.stringify(value) : value;
  });
}
