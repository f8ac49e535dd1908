import type { Dataset, UserRecord } from '../domain/dataset.js';
import { datasetReader } from './dataset-reader.js';
import { idempotencyWrites } from './dataset-idempotency.js';
import { journaled, type Journal, type UndoLog } from './dataset-journal.js';
import { indexUserEmail, unindexUserEmail } from './email-index.js';
import type { RepositoryWriter } from './repository.js';

export type { UndoLog } from './dataset-journal.js';

/**
 * The writer of a transaction over a data set held in memory. Changes apply at once (later
 * reads of the transaction see them) and push their undo step, so a transaction that throws
 * is rolled back by running the log backwards. Records are replaced, never changed in place:
 * a record handed to a reader stays as it was read.
 * `owner` is the repository the transaction runs in, which the claims of Idempotency-Keys name.
 *
 * @example
 * const undo: UndoLog = [];
 * const tx = datasetWriter(() => store.data, undo, owner);
 * await tx.putUser(user);
 */
export function datasetWriter(data: () => Dataset, undo: UndoLog, owner: string): RepositoryWriter {
  const journal = journaled(undo);
  return {
    ...datasetReader(data),
    ...resourceWrites(data, journal),
    ...sessionWrites(data, journal),
    ...idempotencyWrites(data, journal, owner),
  };
}

type ResourceWrites = Pick<
  RepositoryWriter,
  | 'nextId'
  | 'reserveId'
  | 'putUser'
  | 'deleteUser'
  | 'putOrder'
  | 'deleteOrder'
  | 'putOrderItem'
  | 'deleteItemsOfOrder'
>;

/** Users, orders, items and their ids. */
function resourceWrites(data: () => Dataset, journal: Journal): ResourceWrites {
  const { set, deleteWhere, undo } = journal;
  function setUser(id: number, user: UserRecord | undefined): void {
    const current = data();
    const previous = current.users[String(id)];
    set(current.users, String(id), user);
    reindex(current, previous, user);
    undo.push(() => reindex(current, user, previous));
  }
  return {
    // Ids are not given back on rollback, as a database sequence does not give them back.
    async nextId(kind) {
      return ++data().counters[kind];
    },
    async reserveId(kind, id) {
      const { counters } = data();
      counters[kind] = Math.max(counters[kind], id);
    },
    async putUser(user) {
      setUser(user.id, user);
    },
    async deleteUser(id) {
      const current = data();
      const orderIds = new Set<number>();
      for (const order of Object.values(current.orders)) {
        if (order.userId === id) orderIds.add(order.id);
      }
      deleteWhere(current.orderItems, (item) => orderIds.has(item.orderId));
      deleteWhere(current.orders, (order) => orderIds.has(order.id));
      deleteWhere(current.refreshTokens, (token) => token.userId === id);
      setUser(id, undefined);
    },
    async putOrder(order) {
      set(data().orders, String(order.id), order);
    },
    async deleteOrder(id) {
      const current = data();
      deleteWhere(current.orderItems, (item) => item.orderId === id);
      set(current.orders, String(id), undefined);
    },
    async putOrderItem(item) {
      set(data().orderItems, String(item.id), item);
    },
    async deleteItemsOfOrder(orderId) {
      deleteWhere(data().orderItems, (item) => item.orderId === orderId);
    },
  };
}

type SessionWrites = Pick<
  RepositoryWriter,
  'putRefreshToken' | 'spendRefreshTokens' | 'pruneExpiredFamilies' | 'replaceDataSet'
>;

/** Refresh tokens and the data set as a whole. */
function sessionWrites(data: () => Dataset, journal: Journal): SessionWrites {
  const { set, deleteWhere, undo } = journal;
  return {
    async putRefreshToken(record) {
      set(data().refreshTokens, record.hash, record);
    },
    async spendRefreshTokens(which, at) {
      const tokens = data().refreshTokens;
      let spent = 0;
      for (const [hash, token] of Object.entries(tokens)) {
        const matches =
          'familyId' in which ? token.familyId === which.familyId : token.userId === which.userId;
        if (!matches || token.spentAt !== null) continue;
        set(tokens, hash, { ...token, spentAt: at });
        spent += 1;
      }
      return spent;
    },
    async pruneExpiredFamilies(now) {
      const tokens = data().refreshTokens;
      const live = new Set<string>();
      for (const token of Object.values(tokens)) {
        if (Date.parse(token.expiresAt) > now.getTime()) live.add(token.familyId);
      }
      deleteWhere(tokens, (token) => !live.has(token.familyId));
    },
    async replaceDataSet(seed) {
      const current = data();
      const before = { ...current };
      const counters = { ...current.counters };
      for (const kind of ['users', 'orders', 'orderItems'] as const) {
        counters[kind] = Math.max(counters[kind], seed.counters[kind]);
      }
      Object.assign(current, {
        createdAt: seed.createdAt,
        users: seed.users,
        orders: seed.orders,
        orderItems: seed.orderItems,
        refreshTokens: {},
        idempotency: {},
        counters,
      });
      // The counters stay where they are: ids are not given back.
      undo.push(() => Object.assign(current, { ...before, counters: current.counters }));
    },
  };
}

/** Keeps the email index in step when the user at one id changes from `from` to `to`. */
function reindex(data: Dataset, from: UserRecord | undefined, to: UserRecord | undefined): void {
  if (from !== undefined) unindexUserEmail(data, from);
  if (to !== undefined) indexUserEmail(data, to);
}
