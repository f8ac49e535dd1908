/**
 * Freezes an object graph in place (shared and cyclic parts once): the loaded contract is one
 * copy shared by every part of apikit, and none may change it.
 *
 * @example
 * const doc = deepFreeze(dereferenceDocument(bundled));
 */
export function deepFreeze<T>(value: T, seen = new Set<unknown>()): T {
  if (value && typeof value === 'object' && !seen.has(value)) {
    seen.add(value);
    for (const child of Object.values(value)) deepFreeze(child, seen);
    Object.freeze(value);
  }
  return value;
}
