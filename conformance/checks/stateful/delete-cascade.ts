import { cascadeOf, embeddedItems } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { RunContext } from '../../run-context.js';
import type { CreatedResource, ResolvedLink, Unavailable } from '../../stateful/fixtures.js';
import type { Exchange } from '../../http/target-client.js';
import type { CheckRecorder, ScenarioCheck } from '../check.js';
import { readBackEvidence } from '../support/read-back.js';
import { follow, linkCall, noLink, readLinks } from '../support/spec-links.js';
import { callAs, describe, isObject, isSuccess, jsonBody } from '../support/stateful-support.js';

/**
 * `delete_cascade`, where a DELETE declares `x-apikit-cascade`: on a resource made for it, each
 * named operation makes a resource through the resource's link; once the DELETE succeeds, no
 * read link of those resources answers 2xx (a user's order read at `/orders/{id}` is gone with
 * the user), nor, where their create declares `x-apikit-items`, the GET of an item they hold
 * (read before the DELETE). What it made is left to the fixtures' cleanup.
 */
export const deleteCascade: ScenarioCheck = {
  kind: 'scenario',
  name: 'delete_cascade',
  description:
    'Deleting a resource deletes what the operations of its x-apikit-cascade made under it',
  async run(ctx, record) {
    const ops = ctx.operations.filter((op) => op.method === 'delete' && cascadeOf(op));
    if (ops.length === 0)
      return record.skip(undefined, 'no selected DELETE declares x-apikit-cascade');
    await ctx.each(ops, async (op) => {
      const made = await ctx.fixtures.paramsFor(op);
      if ('reason' in made) return record.skip(op, made.reason);
      const parent = made.resource;
      const children: CreatedResource[] = [];
      for (const id of cascadeOf(op)!.operations) {
        const child = await makeUnder(ctx, parent, id);
        if ('reason' in child) record.skip(op, `${id}: ${child.reason}`);
        else children.push(child);
      }
      if (children.length === 0) return;
      const items = (await Promise.all(children.map((c) => itemOf(ctx, c)))).flat();
      const remove = parent.links.find((l) => l.target === op);
      const deleted = remove ? await follow(ctx, remove) : { reason: 'no link deletes it' };
      if ('reason' in deleted) return record.skip(op, deleted.reason);
      if (!isSuccess(deleted.response.status))
        return record.skip(op, `the resource could not be deleted: ${describe(deleted)}`);
      parent.deleted = true;
      await judgeGone(ctx, record, op, children, deleted, items);
    });
  },
};

/** A resource made by `operationId` through a link of `parent`, as the run made it. */
async function makeUnder(
  ctx: RunContext,
  parent: CreatedResource,
  operationId: string,
): Promise<CreatedResource | Unavailable> {
  const reaches = (l: ResolvedLink) => l.target.operationId === operationId;
  const link = parent.links.find(reaches);
  if (!link) return noLink(ctx, parent, reaches, 'no link of the resource reaches it');
  const call = linkCall(ctx, link);
  if ('reason' in call) return call;
  const made = await callAs(ctx, link.target, call);
  if (!isSuccess(made.response.status))
    return { reason: `a valid request was refused: ${describe(made)}` };
  return ctx.fixtures.adopt(link.target, made, call.path ?? {}, call.body);
}

/** Every read link of every child answers anything but 2xx; the DELETE is a failure's request. */
async function judgeGone(
  ctx: RunContext,
  record: CheckRecorder,
  op: SpecOperation,
  children: CreatedResource[],
  deleted: Exchange,
  items: ItemRead[],
): Promise<void> {
  const read: string[] = [];
  for (const item of items) {
    const res = await callAs(ctx, item.op, { path: item.path });
    if (isSuccess(res.response.status))
      return record.fail(
        op,
        {
          message: `an item of a resource made under the deleted one is still there`,
          expected: `${item.op.operationId} answers 404 once the DELETE succeeded (x-apikit-cascade, x-apikit-items)`,
          actual: readBackEvidence(deleted, res, res.response.body.slice(0, 200)),
        },
        deleted,
      );
    read.push(`${item.op.operationId} ${res.response.status}`);
  }
  for (const child of children) {
    for (const reader of readLinks(child)) {
      const res = await follow(ctx, reader);
      if ('reason' in res) continue;
      if (isSuccess(res.response.status))
        return record.fail(
          op,
          {
            message: `a resource ${child.producer.operationId} made under the deleted one is still there`,
            expected: `${reader.target.operationId} answers 404 once the DELETE succeeded (x-apikit-cascade)`,
            actual: readBackEvidence(deleted, res, res.response.body.slice(0, 200)),
          },
          deleted,
        );
      read.push(`${reader.target.operationId} ${res.response.status}`);
    }
    child.deleted = true;
  }
  if (read.length === 0)
    return record.skip(op, 'no link reads what was made under the deleted resource');
  record.pass(op, `after the DELETE: ${read.join(', ')}`);
}

/** The GET of one item a child holds (`x-apikit-items` of its create), to read after the DELETE. */
interface ItemRead {
  op: SpecOperation;
  path: Record<string, unknown>;
}

/** The first item `child` holds, read through its `x-apikit-items` link, as a GET of its own. */
async function itemOf(ctx: RunContext, child: CreatedResource): Promise<ItemRead[]> {
  const decl = embeddedItems(child.producer);
  const op = decl?.item ? ctx.operation(decl.item) : undefined;
  const link = decl && child.links.find((l) => l.name === decl.read.link);
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
