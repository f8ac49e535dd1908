/**
 * The largest array index: JavaScript iterates integer-like keys up to this value in ascending
 * numeric order, and every other key (a larger id included) in insertion order afterwards.
 */
export const MAX_ARRAY_INDEX = 4_294_967_294;

/**
 * The records of a collection keyed by id, by id ascending. While no id can exceed
 * {@link MAX_ARRAY_INDEX} (the collection's counter says so) the object's own key order already
 * is id order and no sort is spent; beyond it (a PUT-create at a huge id) we sort.
 *
 * @example
 * const users = inIdOrder(data.users, data.counters.users);
 */
export function inIdOrder<T extends { id: number }>(
  collection: Record<string, T>,
  highestId: number,
): T[] {
  const records = Object.values(collection);
  return highestId > MAX_ARRAY_INDEX ? records.sort((a, b) => a.id - b.id) : records;
}
