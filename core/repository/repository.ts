import type {
  Dataset,
  IdempotencyRecord,
  OrderItemRecord,
  OrderRecord,
  OrderStatus,
  RefreshTokenRecord,
  UserRecord,
  UserStatus,
} from '../domain/dataset.js';

/**
 * The domain's one way to its data: an asynchronous, transactional port, so that the same
 * services run over a data set held in memory (the JSON file store, the MSW mocks) and over a
 * database far larger than memory shared by several instances (PostgreSQL). Records go in and
 * come out whole; the domain never changes a record it read, it writes a new one.
 */
export interface Repository extends RepositoryReader {
  /**
   * Runs `work` as one transaction: all of its writes or none, judged on data no concurrent
   * transaction changes under it (serializable), durable before the promise resolves. What
   * `work` throws rolls the transaction back and is rethrown. A database may run `work` more
   * than once (a serialization conflict is retried), so `work` must do nothing but read and
   * write through `tx`: no crypto, no I/O, no effects outside it (hash and sign before).
   */
  transact<T>(work: (tx: RepositoryWriter) => Promise<T>): Promise<T>;
  /**
   * Runs several reads on one consistent snapshot (a resource with its items and owner).
   * Single reads may use the reader methods directly.
   */
  snapshot<T>(work: (reader: RepositoryReader) => Promise<T>): Promise<T>;
  /** Waits for the transactions under way, then refuses new ones. */
  close(): Promise<void>;
}

/** A field `GET /users` may sort by. */
export type UserSortField = 'id' | 'name' | 'email' | 'age' | 'createdAt';

/** One `sort` parameter: a field and a direction. */
export interface UserSortKey {
  field: UserSortField;
  direction: 'asc' | 'desc';
}

/**
 * A slice of the users: filtered, sorted (ties and no keys: by id), cut at `offset`/`limit`.
 * Names and emails compare by Unicode code points; a null age sorts last in both directions.
 */
export interface UserSlice {
  status?: UserStatus;
  sort: readonly UserSortKey[];
  offset: number;
  limit: number;
}

/** What every reader (outside or inside a transaction) can ask. */
export interface RepositoryReader {
  /** When the data set was created (first start or last reset): the catalogs' Last-Modified. */
  dataSetCreatedAt(): Promise<string>;
  user(id: number): Promise<UserRecord | undefined>;
  /**
   * The users whose email equals `email` compared lower-cased, lowest id first: at most one
   * where the store enforces uniqueness (PostgreSQL); a hand-edited data set may hold more.
   */
  usersByEmail(email: string): Promise<UserRecord[]>;
  /**
   * One slice of the users and how many match the filter in all. For reads: inside a
   * transaction its total would conflict with every concurrent create (PostgreSQL).
   */
  listUsers(slice: UserSlice): Promise<{ users: UserRecord[]; total: number }>;
  /** Whether a user other than `exceptId` holds ADMIN and is not BLOCKED. */
  hasOtherUnblockedAdmin(exceptId: number): Promise<boolean>;
  order(id: number): Promise<OrderRecord | undefined>;
  /** A user's orders by id, optionally of one status. */
  ordersOfUser(userId: number, status?: OrderStatus): Promise<OrderRecord[]>;
  orderItem(id: number): Promise<OrderItemRecord | undefined>;
  /** An order's items by id. */
  itemsOfOrder(orderId: number): Promise<OrderItemRecord[]>;
  refreshToken(hash: string): Promise<RefreshTokenRecord | undefined>;
  idempotency(scope: string): Promise<IdempotencyRecord | undefined>;
}

/** The collections whose ids the store allocates. */
export type IdKind = 'users' | 'orders' | 'orderItems';

/** What a transaction can do besides reading. */
export interface RepositoryWriter extends RepositoryReader {
  /** The next id of a collection; ids are never handed out twice, rolled back or not. */
  nextId(kind: IdKind): Promise<number>;
  /** Moves a collection's id allocation past `id` (a PUT that creates at a chosen id). */
  reserveId(kind: IdKind, id: number): Promise<void>;
  /** Adds a user (its id is free) or replaces the user with that id. */
  putUser(user: UserRecord): Promise<void>;
  /** Deletes a user with their orders, the orders' items and their refresh tokens. */
  deleteUser(id: number): Promise<void>;
  putOrder(order: OrderRecord): Promise<void>;
  /** Deletes an order with its items. */
  deleteOrder(id: number): Promise<void>;
  putOrderItem(item: OrderItemRecord): Promise<void>;
  deleteItemsOfOrder(orderId: number): Promise<void>;
  putRefreshToken(record: RefreshTokenRecord): Promise<void>;
  /** Marks spent, at `at`, every unspent refresh token of a family or of a user; how many. */
  spendRefreshTokens(which: { familyId: string } | { userId: number }, at: string): Promise<number>;
  /**
   * Deletes the families whose every token expired by `now` (reuse detection needs the rest).
   * Housekeeping: a database may do it after the commit and only now and then, so readers
   * judge expiry themselves (the domain does).
   */
  pruneExpiredFamilies(now: Date): Promise<void>;
  putIdempotency(record: IdempotencyRecord): Promise<void>;
  /**
   * Stores `record` as this store's claim (its `owner` stamped by the store) unless its scope
   * holds a record live at `now` (expiring after it), and answers that live record, or
   * undefined when `record` was stored. A claim whose holder the store can tell is gone (a
   * previous process on a file only one process owns; a holder whose database session ended)
   * is not live, whatever its lease. One step, so that a database claiming a new key reads
   * nothing that concurrent claims of other keys write.
   */
  claimIdempotency(record: IdempotencyRecord, now: Date): Promise<IdempotencyRecord | undefined>;
  /**
   * Replaces this store's claim `claim` (as given to {@link claimIdempotency}) with `record`
   * (the key's answer, or an expired record that gives the key back) and answers true; or
   * writes nothing and answers false when the scope holds anything else: another holder took
   * the claim over, judging this one gone, or an answer is there. A scope holding nothing (the
   * claim expired and was pruned, or a reset) takes `record`. Run in the transaction of the
   * write the answer is for, so that the two commit together (decision 0109).
   */
  settleIdempotency(claim: IdempotencyRecord, record: IdempotencyRecord): Promise<boolean>;
  /** Housekeeping, as {@link RepositoryWriter.pruneExpiredFamilies}: expiry is judged on read. */
  pruneExpiredIdempotency(now: Date): Promise<void>;
  /**
   * Replaces users, orders and items with a seed's, forgets refresh tokens and idempotency
   * records, takes the seed's creation time; id allocation only ever moves forward.
   */
  replaceDataSet(seed: Dataset): Promise<void>;
}
