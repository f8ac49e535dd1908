import type { SpecOperation } from '../spec/operations.js';

/**
 * The operations a run covers: all, narrowed by `include` and then `exclude`, each a list of
 * operationIds or tags. An entry that names nothing is an error (a typo must not silently
 * shrink the run to nothing).
 */
export function selectOperations(
  all: SpecOperation[],
  include: string[] = [],
  exclude: string[] = [],
): SpecOperation[] {
  const known = new Set(all.flatMap((op) => [op.operationId, ...op.tags]));
  const unknown = [...include, ...exclude].filter((name) => !known.has(name));
  if (unknown.length > 0)
    throw new Error(`--include/--exclude name no operationId or tag: ${unknown.join(', ')}`);
  const matches = (op: SpecOperation, names: string[]) =>
    names.includes(op.operationId) || op.tags.some((t) => names.includes(t));
  return all.filter(
    (op) => (include.length === 0 || matches(op, include)) && !matches(op, exclude),
  );
}
