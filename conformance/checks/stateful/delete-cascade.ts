import { cascadeOf, embeddedItems } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { RunContext } from '../../run-context.js';
import type { CreatedResource, ResolvedLink, Unavailable } from '../../stateful/fixtures.js';
import type { Exchange } from '../../http/target-client.js';
import type { CheckRecorder, ScenarioCheck } from '../check.js';
import { firstHeldItem, makeWithItems, type ItemRead } from '../support/held-items.js';
import { readBackEvidence } from '../support/read-back.js';
import { follow, linkCall, noLink, readLinks } from '../support/spec-links.js';
import { callAs, describe, isSuccess } from '../support/stateful-support.js';

/**
 * `delete_cascade`, where a DELETE declares `x-apikit-cascade`: on a resource made for it, each
 * named operation makes a resource through the resource's link; once the DELETE succeeds, no
 * read link of those resources answers 2xx (a user's order read at `/orders/{id}` is gone with
 * the user), nor, where their create declares `x-apikit-items`, the GET of an item they hold
 * (read before the DELETE). With `items: true`, the resource is one holding items, and the GET
 * of one of them answers no 2xx either (an order's item). What it made is left to cleanup.
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
      const cascade = cascadeOf(op)!;
      const made = await ctx.fixtures.paramsFor(op);
      if ('reason' in made) return record.skip(op, made.reason);
      const holding = cascade.items
        ? await holdingItems(ctx, made.resource)
        : { resource: made.resource, held: [] };
      if ('reason' in holding) return record.skip(op, holding.reason);
      const { resource: parent, held } = holding;
      const children: CreatedResource[] = [];
      for (const id of cascade.operations) {
        const child = await makeUnder(ctx, parent, id);
        if ('reason' in child) record.skip(op, `${id}: ${child.reason}`);
        else children.push(child);
      }
      if (cascade.items && held.length === 0)
        record.skip(op, 'x-apikit-cascade items: no item of the resource could be read');
      const items = [
        ...held.map((item) => ({ ...item, held: true })),
        ...(await Promise.all(children.map((c) => firstHeldItem(ctx, c))))
          .flat()
          .map((item) => ({ ...item, held: false })),
      ];
      if (children.length === 0 && items.length === 0) return;
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

/**
 * `resource` when it holds items, else a resource of the same create made with items (the
 * fixture may have been made without), with the first item it holds: what a DELETE cascading
 * to its items is judged on.
 */
async function holdingItems(
  ctx: RunContext,
  resource: CreatedResource,
): Promise<{ resource: CreatedResource; held: ItemRead[] } | Unavailable> {
  const decl = embeddedItems(resource.producer);
  if (!decl)
    return {
      reason: `x-apikit-cascade items: ${resource.producer.operationId} declares no x-apikit-items`,
    };
  const held = await firstHeldItem(ctx, resource);
  if (held.length > 0) return { resource, held };
  const made = await makeWithItems(ctx, resource.producer, decl);
  if ('reason' in made) return made;
  return { resource: made.resource, held: await firstHeldItem(ctx, made.resource) };
}

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
  items: (ItemRead & { held: boolean })[],
): Promise<void> {
  const read: string[] = [];
  for (const item of items) {
    const res = await callAs(ctx, item.op, { path: item.path });
    if (isSuccess(res.response.status))
      return record.fail(
        op,
        {
          message: item.held
            ? 'an item the deleted resource held is still there'
            : 'an item of a resource made under the deleted one is still there',
          expected: `${item.op.operationId} answers 404 once the DELETE succeeded (x-apikit-cascade${item.held ? ' items' : ''}, x-apikit-items)`,
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
