import type { SpecOperation } from '../spec/operations.js';
import { isPathGlob, operationPattern } from './operation-pattern.js';

/**
 * The operations a run covers: all, narrowed by `include` and then `exclude`, each a list of
 * operationIds, tags or path globs (`/users/*`, `GET /users/**`; see `operationPattern`). The
 * OPTIONS operation of a path describes the path: it is in when one of the path's other
 * operations is, or when an entry names it alone, unless excluded. An entry that names nothing is
 * an error (a typo must not silently shrink the run to nothing).
 *
 * @example
 * selectOperations(all, ['/users/*'], ['deleteUser']); // GET, PUT, PATCH and OPTIONS /users/{id}
 */
export function selectOperations(
  all: SpecOperation[],
  include: string[] = [],
  exclude: string[] = [],
): SpecOperation[] {
  const unknown = [...include, ...exclude].filter((entry) => !all.some(operationPattern(entry)));
  if (unknown.length > 0)
    throw new Error(
      `--include/--exclude name no operationId, tag or path of the spec: ${unknown
        .map((entry) => (isPathGlob(entry) ? `${entry} (a path glob)` : entry))
        .join(', ')}`,
    );
  const matches = (op: SpecOperation, entries: string[]) =>
    entries.some((entry) => operationPattern(entry)(op));
  const chosen = (op: SpecOperation) =>
    (include.length === 0 || matches(op, include)) && !matches(op, exclude);
  const others = (op: SpecOperation) =>
    all.filter((o) => o.path === op.path && o.method !== 'options');
  return all.filter((op) => {
    if (op.method !== 'options') return chosen(op);
    if (matches(op, exclude)) return false;
    const siblings = others(op);
    // Named by itself (by an entry that takes none of its path's other operations: its
    // operationId, `OPTIONS /path`, its tag), or in with its path, never for a path left out.
    const named = include.some((entry) => {
      const match = operationPattern(entry);
      return match(op) && !siblings.some(match);
    });
    if (named) return true;
    return siblings.length === 0 ? chosen(op) : siblings.some(chosen);
  });
}
