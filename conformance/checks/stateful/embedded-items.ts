import { embeddedItems, type EmbeddedItems } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CreatedResource, ResolvedLink, Unavailable } from '../../stateful/fixtures.js';
import type { CheckRecorder, ScenarioCheck } from '../check.js';
import { declaredHttp } from '../../../spec/http-extensions.js';
import { toSecond } from '../response/conditional-request.js';
import { readBackEvidence } from '../support/read-back.js';
import { makeWithItems } from '../support/held-items.js';
import { changeableProperty, roundTripBody } from '../support/round-trip-body.js';
import { linkCall, noLink } from '../support/spec-links.js';
import {
  callAs,
  callFor,
  describe,
  isObject,
  isSuccess,
  jsonBody,
  requestSchema,
} from '../support/stateful-support.js';

/** `exchange` showed the fault; `cause`, when set, is the write that made it (decision 0098). */
type Failure = { message: string; expected: string; exchange: Exchange; cause?: Exchange };

/** The write is the failure's request where there is one, the read-back its evidence. */
function recordFailure(record: CheckRecorder, op: SpecOperation, failure: Failure): void {
  const { exchange, cause, ...said } = failure;
  const actual = cause ? readBackEvidence(cause, exchange) : describe(exchange);
  record.fail(op, { ...said, actual }, cause ?? exchange);
}

/**
 * `embedded_items`, where a create declares `x-apikit-items`: a resource made with items,
 * read through the declared link and query, lists as many items as were sent, each naming the
 * resource in its parent property and holding what was sent; each item's own GET answers it
 * as embedded (and, with `datedByParent`, dated by the resource's date). Each PUT named in `replace`, sent the resource without items (one plain
 * property changed), leaves it with that property and `[]`; sent the items again, with them.
 */
export const embeddedItemsCheck: ScenarioCheck = {
  kind: 'scenario',
  name: 'embedded_items',
  description:
    'Items a resource holds (x-apikit-items) name it, read alike on their own, and a PUT replaces them (not sent: [])',
  async run(ctx, record) {
    const ops = ctx.operations.filter((op) => op.method === 'post' && embeddedItems(op));
    if (ops.length === 0)
      return record.skip(undefined, 'no selected create declares x-apikit-items');
    await ctx.each(ops, async (op) => {
      const decl = embeddedItems(op)!;
      const made = await makeWithItems(ctx, op, decl);
      if ('reason' in made) return record.skip(op, made.reason);
      const { resource, sent } = made;
      const read = await readItems(ctx, resource, decl);
      if ('reason' in read) return record.skip(op, read.reason);
      const wrong =
        judgeItems(read, sent, decl, resource, resource.exchange) ??
        (await judgeEach(ctx, read, decl));
      if (wrong) return recordFailure(record, op, wrong);
      record.pass(op, `${sent.length} items, each naming it and read alike on its own`);
      for (const replace of decl.replace.map((id) => ctx.operation(id))) {
        if (!replace || !ctx.operations.includes(replace)) continue;
        const failed = await judgeReplace(ctx, resource, replace, decl, sent, read.body);
        if (failed && 'reason' in failed) record.skip(replace, failed.reason);
        else if (failed) recordFailure(record, replace, failed);
        else record.pass(replace, `without ${decl.property}: []; with them: ${sent.length} items`);
      }
    });
  },
};

async function readItems(
  ctx: RunContext,
  resource: CreatedResource,
  decl: EmbeddedItems,
): Promise<{ items: unknown[]; body: unknown; exchange: Exchange } | Unavailable> {
  const named = (l: ResolvedLink) => l.name === decl.read.link;
  const link = resource.links.find(named);
  if (!link)
    return noLink(ctx, resource, named, `no link ${decl.read.link} in the create's answer`);
  const call = linkCall(ctx, link);
  if ('reason' in call) return call;
  const res = await callAs(ctx, link.target, {
    ...call,
    query: { ...call.query, ...decl.read.query },
  });
  const body = res.response.status === 200 ? jsonBody(res) : undefined;
  const items = isObject(body) ? body[decl.property] : undefined;
  if (!Array.isArray(items))
    return {
      reason: `reading ${decl.read.link} answered ${describe(res)} without ${decl.property}`,
    };
  return { items, body, exchange: res };
}

/** The items read hold what was sent, and each names the resource. */
function judgeItems(
  read: { items: unknown[]; exchange: Exchange },
  sent: Record<string, unknown>[],
  decl: EmbeddedItems,
  resource: CreatedResource,
  cause: Exchange,
): Failure | undefined {
  const id = isObject(resource.body) ? resource.body.id : undefined;
  const missing = sent.filter(
    (s) => !read.items.some((i) => isObject(i) && Object.entries(s).every(([k, v]) => i[k] === v)),
  );
  if (read.items.length !== sent.length || missing.length > 0)
    return {
      message: `the resource holds other ${decl.property} than were sent`,
      expected: JSON.stringify(sent),
      exchange: read.exchange,
      cause,
    };
  const stray = decl.parent
    ? read.items.find((i) => !isObject(i) || i[decl.parent!] !== id)
    : undefined;
  if (stray !== undefined)
    return {
      message: `an item of resource ${String(id)} names ${JSON.stringify(isObject(stray) ? stray[decl.parent!] : stray)} in ${decl.parent}`,
      expected: `${decl.parent}: ${String(id)} on every item (x-apikit-items)`,
      exchange: read.exchange,
      cause,
    };
  return undefined;
}

/** Each item's own GET answers it as embedded. */
async function judgeEach(
  ctx: RunContext,
  read: { items: unknown[]; body: unknown },
  decl: EmbeddedItems,
): Promise<Failure | undefined> {
  const op = decl.item ? ctx.operation(decl.item) : undefined;
  const param = op?.parameters.find((p) => p.in === 'path');
  if (!op || !param) return undefined;
  for (const item of read.items) {
    if (!isObject(item)) continue;
    const res = await callAs(ctx, op, callFor(op, { [param.name]: item.id }));
    const own = res.response.status === 200 ? jsonBody(res) : undefined;
    if (JSON.stringify(own) !== JSON.stringify(item))
      return {
        message: `item ${String(item.id)} reads otherwise on its own than embedded`,
        expected: `200 with ${JSON.stringify(item)}`,
        exchange: res,
      };
    const misdated = decl.datedByParent ? parentDateBreak(ctx, res, read.body) : undefined;
    if (misdated) return misdated;
  }
  return undefined;
}

/**
 * With `datedByParent`, an item's 200 is dated by the resource holding it, as just read: its
 * `lastModifiedProperty` (x-apikit-http), to the second. No Last-Modified at all is
 * response_headers_conformance's to judge; no declared property, nothing to compare with.
 */
function parentDateBreak(ctx: RunContext, res: Exchange, parent: unknown): Failure | undefined {
  const property = declaredHttp(ctx.spec).lastModifiedProperty;
  const header = res.headers.get('last-modified');
  const own = isObject(parent) && property ? parent[property] : undefined;
  const expected = typeof own === 'string' ? Date.parse(own) : NaN;
  if (header === null || Number.isNaN(expected)) return undefined;
  if (Date.parse(header) === toSecond(expected)) return undefined;
  return {
    message: `an item is not dated by the resource holding it (Last-Modified: ${header})`,
    expected: `Last-Modified: ${new Date(toSecond(expected)).toUTCString()} (its holder's ${property} ${String(own)}; x-apikit-items datedByParent)`,
    exchange: res,
  };
}

/** A PUT without the items empties them; with them, holds them. */
async function judgeReplace(
  ctx: RunContext,
  resource: CreatedResource,
  op: SpecOperation,
  decl: EmbeddedItems,
  sent: Record<string, unknown>[],
  representation: unknown,
): Promise<Failure | Unavailable | undefined> {
  const link = resource.links.find((l) => l.target === op);
  const call = link
    ? linkCall(ctx, link)
    : { reason: `no link of the create reaches ${op.operationId}` };
  if ('reason' in call) return call;
  const schema = requestSchema(op);
  const body = roundTripBody(ctx, schema, representation, false);
  delete body[decl.property];
  const change = changeableProperty(ctx, schema, representation);
  if (change) body[change.name] = change.value;
  for (const items of [undefined, sent]) {
    const put = await callAs(ctx, op, {
      ...call,
      body: items ? { ...body, [decl.property]: items } : body,
    });
    if (!isSuccess(put.response.status))
      return { reason: `the replace answered ${describe(put)} to a valid body` };
    const read = await readItems(ctx, resource, decl);
    if ('reason' in read) return read;
    const got = read.body as Record<string, unknown>;
    if (change && got[change.name] !== change.value)
      return {
        message: `a replace did not set ${change.name}`,
        expected: `${change.name}: ${JSON.stringify(change.value)}`,
        exchange: read.exchange,
        cause: put,
      };
    if (!items && read.items.length > 0)
      return {
        message: `a replace without ${decl.property} kept ${read.items.length} of them`,
        expected: `${decl.property}: [] (x-apikit-items replace: items not sent become [])`,
        exchange: read.exchange,
        cause: put,
      };
    if (items) {
      const wrong = judgeItems(read, items, decl, resource, put);
      if (wrong)
        return { ...wrong, message: `after a replace with ${decl.property}: ${wrong.message}` };
    }
  }
  return undefined;
}
