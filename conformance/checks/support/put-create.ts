import type { IdAllocation } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import { fixtureCredential, type Unavailable } from './probe-support.js';
import { idParameter } from './session-support.js';
import { describe } from './stateful-support.js';

/** How far past the newest id a PUT-create goes: far enough that one increment misses it. */
export const PUT_CREATE_GAP = 2;

/** A resource PUT-created at a chosen id: the PUT, its path and its answer. */
export interface PutCreated {
  put: SpecOperation;
  path: Record<string, number>;
  exchange: Exchange;
}

/**
 * A PUT-create (`x-apikit-ids.putCreate`) at the absent id `at`, with `If-None-Match: *` so that
 * it never replaces anything: a 201, or why none was made. `alsoNeeded` are operations the
 * caller goes on to call (the DELETE taking it away): the PUT is not sent unless the run may
 * call them too.
 *
 * @example
 * const made = await putCreateAt(ctx, ids, newest + 2, [remover]);
 */
export async function putCreateAt(
  ctx: RunContext,
  ids: IdAllocation,
  at: number,
  alsoNeeded: (SpecOperation | undefined)[] = [],
): Promise<PutCreated | Unavailable> {
  const put = ids.putCreate ? ctx.operation(ids.putCreate) : undefined;
  if (!put) return { reason: `the PUT ${ids.putCreate ?? '(none)'} is not in the spec` };
  const needed = [put, ...alsoNeeded].find((o) => o && ctx.scope.unavailable(o));
  if (needed)
    return {
      reason: `a PUT-create needs ${needed.operationId}, which ${ctx.scope.unavailable(needed)}`,
    };
  const [body] = ctx.generate.positiveBodies(put, 1);
  const path = { [idParameter(put) ?? 'id']: at };
  const headers = { 'If-None-Match': '*' };
  const exchange = await ctx.call(put, { path, body, headers }, fixtureCredential(ctx));
  if (exchange.response.status !== 201)
    return { reason: `a PUT-create at ${at} was not a 201: ${describe(exchange)}` };
  return { put, path, exchange };
}
