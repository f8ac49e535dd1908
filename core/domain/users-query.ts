import { compareCodePoints } from './compare-code-points.js';
import type { UserRecord, UserStatus } from './dataset.js';
import type { UserPage } from './dto.js';
import { inIdOrder } from './in-id-order.js';
import type { DomainContext } from './ports.js';
import { toUserDto } from './user-dto.js';

/** A field `GET /users` may sort by. */
export type UserSortField = 'id' | 'name' | 'email' | 'age' | 'createdAt';

/** One `sort` parameter: a field and a direction. */
export interface UserSortKey {
  field: UserSortField;
  direction: 'asc' | 'desc';
}

/** `GET /users` after validation: filter, zero-based page, page size, sort keys in order. */
export interface UserListQuery {
  status?: UserStatus;
  page: number;
  size: number;
  sort: UserSortKey[];
}

type Comparator = (a: UserRecord, b: UserRecord) => number;

const ascending: Record<UserSortField, Comparator> = {
  id: (a, b) => a.id - b.id,
  name: (a, b) => compareCodePoints(a.name, b.name),
  email: (a, b) => compareCodePoints(a.email, b.email),
  age: (a, b) => (a.age ?? 0) - (b.age ?? 0),
  createdAt: (a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt),
};

function compareByKey(key: UserSortKey): Comparator {
  const sign = key.direction === 'asc' ? 1 : -1;
  if (key.field !== 'age') return (a, b) => sign * ascending[key.field](a, b);
  // A null age is unknown, not small: it goes last whichever way the list is sorted.
  return (a, b) => {
    if (a.age === null || b.age === null)
      return (a.age === null ? 1 : 0) - (b.age === null ? 1 : 0);
    return sign * ascending.age(a, b);
  };
}

/**
 * A comparator applying the sort keys in order, ties broken by id ascending.
 *
 * @example
 * users.sort(compareUsers([{ field: 'age', direction: 'desc' }]));
 */
export function compareUsers(keys: readonly UserSortKey[]): Comparator {
  const comparators = [...keys.map(compareByKey), ascending.id];
  return (a, b) => {
    for (const compare of comparators) {
      const order = compare(a, b);
      if (order !== 0) return order;
    }
    return 0;
  };
}

/**
 * One page of users: filtered by status, sorted (by id when no key is given), then cut. A page
 * past the end has empty `content` but the true totals.
 *
 * @example
 * listUsers(ctx, { status: 'ACTIVE', page: 0, size: 20, sort: [{ field: 'name', direction: 'asc' }] });
 */
export function listUsers(ctx: DomainContext, query: UserListQuery): UserPage {
  const { data } = ctx.store;
  let users = inIdOrder(data.users, data.counters.users);
  if (query.status) users = users.filter((user) => user.status === query.status);
  if (query.sort.length > 0) users.sort(compareUsers(query.sort));
  const start = query.page * query.size;
  return {
    content: users.slice(start, start + query.size).map(toUserDto),
    totalElements: users.length,
    totalPages: Math.ceil(users.length / query.size),
    page: query.page,
    size: query.size,
  };
}
