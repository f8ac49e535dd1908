import { embeddedItems, type EmbeddedItems } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { RunContext } from '../../run-context.js';
import type { CreatedResource, Unavailable } from '../../stateful/fixtures.js';
import { validBody } from './round-trip-body.js';
import { linkCall } from './spec-links.js';
import { callAs, callFor, describe, isObject, isSuccess, jsonBody } from './stateful-support.js';

/**
 * A resource made through `op` (a create declaring `x-apikit-items`) with a valid body that
 * holds items, adopted by the fixtures for cleanup, and the items sent.
 *
 * @example
 * const made = await makeWithItems(ctx, createOrder, embeddedItems(createOrder)!);
 */
export async function makeWithItems(
  ctx: RunContext,
  op: SpecOperation,
  decl: EmbeddedItems,
): Promise<{ resource: CreatedResource; sent: Record<string, unknown>[] } | Unavailable> {
  const body = [0, 1, 2]
    .map((i) => validBody(ctx, op, i))
    .find(
      (b) =>
        isObject(b) &&
        Array.isArray(b[decl.property]) &&
        (b[decl.property] as unknown[]).length > 0,
    ) as Record<string, unknown> | undefined;
  if (!body) return { reason: `no valid body with ${decl.property} could be made` };
  const parents = op.parameters.some((p) => p.in === 'path')
    ? await ctx.fixtures.paramsFor(op)
    : { parameters: {} };
  if ('reason' in parents) return parents;
  const call = callFor(op, parents.parameters);
  const res = await callAs(ctx, op, { ...call, body });
  if (!isSuccess(res.response.status))
    return { reason: `${op.operationId} answered ${describe(res)} to a valid body` };
  const resource = ctx.fixtures.adopt(op, res, call.path ?? {}, body);
  return { resource, sent: body[decl.property] as Record<string, unknown>[] };
}

/** The GET of one item a resource holds (`x-apikit-items` of its create), as its own call. */
export interface ItemRead {
  op: SpecOperation;
  path: Record<string, unknown>;
}

/**
 * The first item `resource` holds, read through its create's `x-apikit-items` link, as a GET
 * of its own: none when the create declares no items, the resource holds none, or the GET is
 * not the run's to call.
 *
 * @example
 * const [item] = await firstHeldItem(ctx, order); // { op: getOrderItem, path: { id: 7 } }
 */
export async function firstHeldItem(
  ctx: RunContext,
  resource: CreatedResource,
): Promise<ItemRead[]> {
  const decl = embeddedItems(resource.producer);
  const op = decl?.item ? ctx.operation(decl.item) : undefined;
  const link = decl && resource.links.find((l) => l.name === decl.read.link);
  const param = op?.parameters.find((p) => p.in === 'path')?.name;
  if (!decl || !op || !link || !param || ctx.scope.unavailable(op)) return [];
  if (ctx.scope.unavailable(link.target)) return [];
  const call = linkCall(ctx, link);
  if ('reason' in call) return [];
  const res = await callAs(ctx, link.target, {
    ...call,
    query: { ...call.query, ...decl.read.query },
  });
  const body = res.response.status === 200 ? jsonBody(res) : undefined;
  const held = isObject(body) ? body[decl.property] : undefined;
  const first = Array.isArray(held) ? held.find(isObject) : undefined;
  return first && first.id !== undefined ? [{ op, path: { [param]: first.id } }] : [];
}
