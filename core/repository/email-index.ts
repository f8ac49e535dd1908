import type { Dataset, UserRecord } from '../domain/dataset.js';

/**
 * Lower-cased email -> the id of the user holding it, or the ids when several do (only a file
 * edited by hand has that). A bare number, not a list of one: at 100,000 users the lists cost
 * about 6 MB.
 */
type EmailIndex = Map<string, number | number[]>;

/**
 * One index per `users` collection object. A collection replaced as a whole (a reset, the
 * store's rollback to the durable copy, a fresh load) is a new key, indexed on first use.
 */
const indexes = new WeakMap<Dataset['users'], EmailIndex>();

function indexOf(data: Dataset): EmailIndex {
  let index = indexes.get(data.users);
  if (index === undefined) {
    index = new Map();
    const users = data.users;
    // for...in: no array of 100,000 users made just to be walked once.
    for (const key in users) {
      const user = users[key];
      if (user !== undefined) add(index, user.email.toLowerCase(), user.id);
    }
    indexes.set(data.users, index);
  }
  return index;
}

function add(index: EmailIndex, key: string, id: number): void {
  const ids = index.get(key);
  if (ids === undefined) index.set(key, id);
  else if (typeof ids === 'number') {
    if (ids !== id) index.set(key, [ids, id]);
  } else if (!ids.includes(id)) ids.push(id);
}

/**
 * The users whose email equals `email` case-insensitively, lowest id first, in O(1) instead of
 * a scan of every user (twice per create: 100,000 users made each write cost milliseconds).
 * Every hit is checked against the record itself, so an entry left behind by a change can
 * never answer wrongly; the domain keeps the index complete by calling {@link indexUserEmail}
 * and {@link unindexUserEmail} wherever a user is added, re-addressed or removed (all in
 * `users-service.ts`; other changes replace `data.users` as a whole).
 *
 * @example
 * const [owner] = usersWithEmail(data, 'Ada@Example.com');
 */
export function usersWithEmail(data: Dataset, email: string): UserRecord[] {
  const key = email.toLowerCase();
  const ids = indexOf(data).get(key);
  if (ids === undefined) return [];
  const found: UserRecord[] = [];
  for (const id of typeof ids === 'number' ? [ids] : ids) {
    const user = data.users[String(id)];
    if (user !== undefined && user.id === id && user.email.toLowerCase() === key) found.push(user);
  }
  return found.sort((a, b) => a.id - b.id);
}

/**
 * Records a user's (new) email. `previousEmail` is the address it replaces, if any.
 *
 * @example
 * data.users[String(id)] = user;
 * indexUserEmail(data, user);
 */
export function indexUserEmail(data: Dataset, user: UserRecord, previousEmail?: string): void {
  const index = indexOf(data);
  if (previousEmail !== undefined) remove(index, previousEmail.toLowerCase(), user.id);
  add(index, user.email.toLowerCase(), user.id);
}

/**
 * Forgets a user's email; call before the user is deleted.
 *
 * @example
 * unindexUserEmail(data, user);
 * delete data.users[String(user.id)];
 */
export function unindexUserEmail(data: Dataset, user: UserRecord): void {
  remove(indexOf(data), user.email.toLowerCase(), user.id);
}

function remove(index: EmailIndex, key: string, id: number): void {
  const ids = index.get(key);
  if (ids === undefined) return;
  if (typeof ids === 'number') {
    if (ids === id) index.delete(key);
    return;
  }
  const rest = ids.filter((other) => other !== id);
  if (rest.length === 0) index.delete(key);
  else index.set(key, rest.length === 1 ? (rest[0] as number) : rest);
}
