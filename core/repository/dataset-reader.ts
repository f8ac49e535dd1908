import type { Dataset, OrderStatus, UserRecord } from '../domain/dataset.js';
import { ADMIN_ROLE_ID } from '../domain/role-ids.js';
import { compareUsers } from './compare-users.js';
import { usersWithEmail } from './email-index.js';
import { inIdOrder } from './in-id-order.js';
import type { RepositoryReader, UserSlice } from './repository.js';

/**
 * The reader of a data set held in memory. `data` is asked at every call: the store may have
 * replaced its contents (a reload) or refuse to be read (a failed save: 503), which an async
 * method turns into a rejection.
 *
 * @example
 * const reader = datasetReader(() => store.data);
 * await reader.user(1);
 */
export function datasetReader(data: () => Dataset): RepositoryReader {
  return {
    dataSetCreatedAt: async () => data().createdAt,
    user: async (id) => data().users[String(id)],
    usersByEmail: async (email) => usersWithEmail(data(), email),
    listUsers: async (slice) => listUsers(data(), slice),
    async hasOtherUnblockedAdmin(exceptId) {
      const users = data().users;
      for (const key in users) {
        const user = users[key];
        if (user && user.id !== exceptId && user.status !== 'BLOCKED' && holdsAdmin(user))
          return true;
      }
      return false;
    },
    order: async (id) => data().orders[String(id)],
    ordersOfUser: async (userId, status?: OrderStatus) => {
      const { orders, counters } = data();
      return inIdOrder(orders, counters.orders).filter(
        (order) => order.userId === userId && (!status || order.status === status),
      );
    },
    orderItem: async (id) => data().orderItems[String(id)],
    itemsOfOrder: async (orderId) => {
      const { orderItems, counters } = data();
      return inIdOrder(orderItems, counters.orderItems).filter((item) => item.orderId === orderId);
    },
    refreshToken: async (hash) => data().refreshTokens[hash],
    idempotency: async (scope) => data().idempotency[scope],
  };
}

function holdsAdmin(user: UserRecord): boolean {
  return user.roleIds.includes(ADMIN_ROLE_ID);
}

function listUsers(data: Dataset, slice: UserSlice): { users: UserRecord[]; total: number } {
  let users = inIdOrder(data.users, data.counters.users);
  if (slice.status) users = users.filter((user) => user.status === slice.status);
  if (slice.sort.length > 0) users.sort(compareUsers(slice.sort));
  return { users: users.slice(slice.offset, slice.offset + slice.limit), total: users.length };
}
