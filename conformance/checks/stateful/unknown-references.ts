import { referencesOf, type Reference } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { OperationCall } from '../../http/build-request.js';
import type { RunContext } from '../../run-context.js';
import type { Unavailable } from '../../stateful/fixtures.js';
import type { ScenarioCheck } from '../check.js';
import { itemsOf, listShape } from '../support/list-shape.js';
import { roundTripBody } from '../support/round-trip-body.js';
import { deleteCreated, follow, freshTarget, readLinks } from '../support/spec-links.js';
import {
  callAs,
  callFor,
  describe,
  isObject,
  isSuccess,
  jsonBody,
  requestSchema,
} from '../support/stateful-support.js';
import { validBody } from '../support/round-trip-body.js';

/**
 * `unknown_references`, where a write declares `x-apikit-references`: a body valid but for
 * one referencing field, which names no item of the declared list (one past its greatest
 * `id`), answers the declared status. A create that wrongly succeeds is deleted again; a PUT
 * or PATCH is tried on a resource made for it (a round-trip body for a PUT).
 */
export const unknownReferences: ScenarioCheck = {
  kind: 'scenario',
  name: 'unknown_references',
  description:
    'A body naming a resource that does not exist (x-apikit-references: an unknown categoryId) answers the declared status',
  async run(ctx, record) {
    const ops = ctx.operations.filter((op) => referencesOf(op));
    if (ops.length === 0)
      return record.skip(undefined, 'no selected write declares x-apikit-references');
    await ctx.each(ops, async (op) => {
      const said: string[] = [];
      for (const ref of referencesOf(op)!) {
        const unknown = await unknownId(ctx, ref);
        if (typeof unknown === 'object') return record.skip(op, unknown.reason);
        const call = await callWith(ctx, op, ref.field, unknown);
        if ('reason' in call) return record.skip(op, call.reason);
        const res = await callAs(ctx, op, call);
        if (isSuccess(res.response.status) && op.method === 'post')
          await deleteCreated(ctx, op, res, call.body, call.path ?? {});
        if (res.response.status !== ref.status)
          return record.fail(
            op,
            {
              message: `${ref.field}: ${unknown}, naming nothing ${ref.list} lists, was ${isSuccess(res.response.status) ? 'accepted' : 'not refused as declared'}`,
              expected: `${ref.status} (x-apikit-references)`,
              actual: describe(res),
            },
            res,
          );
        said.push(`${ref.field} ${unknown}: ${ref.status}`);
      }
      record.pass(op, said.join('; '));
    });
  },
};

/**
 * One past the greatest id the list answers; for string ids (decision 0116), the greatest with
 * a letter added, which no item holds.
 */
async function unknownId(ctx: RunContext, ref: Reference): Promise<number | string | Unavailable> {
  const list = ctx.operation(ref.list);
  const shape = list && listShape(list);
  if (!list || !shape) return { reason: `${ref.list} is no GET of a list` };
  const res = await callAs(ctx, list, {});
  const items = res.response.status === 200 ? itemsOf(shape, jsonBody(res)) : undefined;
  if (!items) return { reason: `${ref.list} answered ${describe(res)}` };
  const ids = items.map((i) => (isObject(i) ? i.id : undefined));
  if (ids.length > 0 && ids.every((id): id is string => typeof id === 'string'))
    return `${[...ids].sort().at(-1)!}z`;
  if (!ids.every((id): id is number => typeof id === 'number'))
    return { reason: `the items of ${ref.list} have no numeric id` };
  return Math.max(0, ...ids) + 1;
}

/** A valid call of `op` with `field` set to `value`: a create under a new parent, else on a new resource. */
async function callWith(
  ctx: RunContext,
  op: SpecOperation,
  field: string,
  value: number | string,
): Promise<OperationCall | Unavailable> {
  if (op.method === 'post') {
    const needsPath = op.parameters.some((p) => p.in === 'path');
    const made = needsPath ? await ctx.fixtures.paramsFor(op) : { parameters: {} };
    if ('reason' in made) return made;
    const body = validBody(ctx, op);
    if (!isObject(body)) return { reason: 'no valid object body could be made' };
    return { ...callFor(op, made.parameters), body: { ...body, [field]: value } };
  }
  const target = await freshTarget(ctx, op);
  if ('reason' in target) return target;
  if (op.method === 'patch') return { ...target.call, body: { [field]: value } };
  const reader = readLinks(target.resource)[0];
  const read = reader ? await follow(ctx, reader) : undefined;
  if (!read || 'reason' in read || read.response.status !== 200)
    return { reason: 'the resource made for it could not be read back' };
  const body = roundTripBody(ctx, requestSchema(op), jsonBody(read), false);
  return { ...target.call, body: { ...body, [field]: value } };
}
