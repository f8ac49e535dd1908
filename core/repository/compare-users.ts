import type { UserRecord } from '../domain/dataset.js';
import { compareCodePoints } from './compare-code-points.js';
import type { UserSortField, UserSortKey } from './repository.js';

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
 * A comparator applying the sort keys in order, ties broken by id ascending: the order every
 * repository must give `listUsers` (the PostgreSQL one says it in SQL).
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
