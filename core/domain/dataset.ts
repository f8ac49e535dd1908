/**
 * The persisted data set: exactly what `data/db.json` holds. Collections are objects keyed by
 * id (as a string) so that a lookup is O(1) and the file stays plain JSON. Wire shapes (UserDto,
 * Order, ...) are derived from these records by the services; secrets never leave them.
 */

export type UserStatus = 'ACTIVE' | 'INACTIVE' | 'BLOCKED';
export type OrderStatus = 'PENDING' | 'PAID' | 'SHIPPED' | 'DELIVERED' | 'CANCELLED';
export type RoleName = 'USER' | 'ADMIN';

export interface UserRecord {
  id: number;
  name: string;
  email: string;
  age: number | null;
  status: UserStatus;
  createdAt: string;
  updatedAt: string;
  /** Ids into the fixed role catalog; every user holds USER (1). */
  roleIds: number[];
  /** scrypt hash of the login password; null for users made through the API (they cannot log in). */
  passwordHash: string | null;
}

export interface OrderRecord {
  id: number;
  userId: number;
  product: string;
  categoryId: number;
  status: OrderStatus;
  createdAt: string;
  /** Bumped whenever the order or one of its items changes (items take their order's updatedAt). */
  updatedAt: string;
}

export interface OrderItemRecord {
  id: number;
  orderId: number;
  product: string;
  quantity: number;
}

export interface RefreshTokenRecord {
  /** SHA-256 (hex) of the opaque token: the token itself is never stored. Also the key. */
  hash: string;
  userId: number;
  /** Tokens rotated from one login share a family; reuse of a spent token revokes the family. */
  familyId: string;
  createdAt: string;
  expiresAt: string;
  /** Set when the token was exchanged by a refresh (rotation) or revoked by logout/blocking. */
  spentAt: string | null;
}

export interface IdempotencyRecord {
  /** `${subject} ${method} ${path} ${key}`: keys are scoped to the caller and the operation. */
  scope: string;
  /** The request body as canonical JSON, to tell a replay from a reuse with another body. */
  requestBody: string;
  status: number;
  headers: Record<string, string>;
  body: string | null;
  createdAt: string;
  expiresAt: string;
  /**
   * On a claim (status 0): the store instance holding it, stamped by the store, so that another
   * can tell a holder that is gone (a previous process, a lost database session) and free the
   * key at once rather than after the claim's lease. Absent on answers.
   */
  owner?: string;
}

export interface Dataset {
  schemaVersion: 1;
  /** When this data set was created (first start or last reset): the catalogs' Last-Modified. */
  createdAt: string;
  /** Highest id ever used per collection; never moves back (not on delete, not on reset). */
  counters: { users: number; orders: number; orderItems: number };
  users: Record<string, UserRecord>;
  orders: Record<string, OrderRecord>;
  orderItems: Record<string, OrderItemRecord>;
  refreshTokens: Record<string, RefreshTokenRecord>;
  idempotency: Record<string, IdempotencyRecord>;
}
