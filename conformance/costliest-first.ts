import { isUnsafeMethod, type SpecOperation } from '../spec/operations.js';

/**
 * Operations costliest first: the order a phase that works through them side by side (the
 * cases of each in order) should take them up, so that the long ones do not run alone at its
 * end: the login first (every request of it costs the target a password hash), then the writes
 * (each accepted one a durable flush), then the reads; each group in the given order. Which
 * operation starts when changes none of its cases: each draws from its own seeded stream.
 *
 * @example
 * costliestFirst(ctx.operations, ctx.auth.loginOperation?.operationId);
 */
export function costliestFirst(operations: SpecOperation[], login?: string): SpecOperation[] {
  const rank = (op: SpecOperation) =>
    op.operationId === login ? 0 : isUnsafeMethod(op.method) ? 1 : 2;
  return operations
    .map((op, index) => ({ op, index, rank: rank(op) }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ op }) => op);
}
