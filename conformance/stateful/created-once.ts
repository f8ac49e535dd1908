import { idAllocation } from '../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../spec/operations.js';
import { sortOrder } from '../../spec/relation-extensions.js';
import { linkWithRel, parseLinkHeader } from '../checks/support/link-header.js';
import { identity, itemsOf, listShape, type ListShape } from '../checks/support/list-shape.js';
import { isObject, jsonBody } from '../checks/support/stateful-support.js';
import type { Exchange } from '../http/target-client.js';
import type { RunContext } from '../run-context.js';
import { getOperationAt } from './operation-at-url.js';
import type { ReadBackMismatch } from './read-back-verdict.js';

/** A read of the collection after a creation, and what it showed wrong, if anything. */
export interface CollectionRead {
  exchange: Exchange;
  mismatch: ReadBackMismatch | undefined;
}

/**
 * After a creation made alone, where the creating operation declares increasing ids
 * (`x-apikit-ids`, decision 0083) and its path lists the collection: the list holds no item
 * with a greater id than the new one. Each id is greater than every id assigned before, so a
 * greater one was assigned after the creation: with no other write in between, a second
 * resource made by the same request. Read newest first when the list takes a sort parameter
 * (`x-apikit-sort` param: `field,desc`), else its default order and, when that is by id, its
 * last page too. Undefined when the list cannot tell (not declared, not read, the new id not
 * among the items read).
 */
export async function readCollectionAfterCreation(
  ctx: RunContext,
  op: SpecOperation,
  path: Record<string, unknown>,
  created: Exchange,
  authorization: string | null,
): Promise<CollectionRead | undefined> {
  const ids = idAllocation(op);
  const body = jsonBody(created);
  const id = ids && isObject(body) ? body[ids.field] : undefined;
  if (!ids?.increasing || typeof id !== 'number' || !Number.isSafeInteger(id)) return undefined;
  const list = ctx.allOperations.find((o) => o.method === 'get' && o.path === op.path);
  const shape = list && listShape(list);
  if (!list || !shape || ctx.scope.unavailable(list) !== undefined) return undefined;
  const sort = sortOrder(list);
  const query = sort?.param ? { [sort.param]: `${ids.field},desc` } : undefined;
  let exchange = await ctx.call(list, { path, query, authorization });
  let seen = idsOf(shape, exchange, ids.field);
  const last = linkWithRel(parseLinkHeader(exchange.headers.get('link')), 'last');
  if (seen && !seen.includes(id) && !query && sort?.default === ids.field && last) {
    const page = getOperationAt(ctx, last, exchange.request.url);
    if (page?.op !== list) return undefined;
    exchange = await ctx.call(list, { path: page.path, rawQuery: page.rawQuery, authorization });
    seen = idsOf(shape, exchange, ids.field);
  }
  if (!seen?.includes(id)) return undefined;
  const newer = seen.filter((other) => other > id);
  return {
    exchange,
    mismatch:
      newer.length === 0
        ? undefined
        : {
            message: `a creation answered ${ids.field} ${id}, and the collection read right after it also holds ${newer.join(', ')}, assigned later: the request created more than one resource`,
            expected: `no ${ids.field} above ${id} in the collection after creating it alone`,
          },
  };
}

/** The items of a collection read whole: its identities (decision 0125). */
export interface CollectionItems {
  exchange: Exchange;
  items: string[];
}

/**
 * The collection a creating POST adds to (the GET of its path, answering a list), read whole
 * with the creation's credential: undefined when there is none, it is not the run's to call,
 * or the answer is one page of several (a `next` or `last` link elsewhere).
 */
export async function readWholeCollection(
  ctx: RunContext,
  op: SpecOperation,
  path: Record<string, unknown>,
  authorization: string | null,
): Promise<CollectionItems | undefined> {
  const list = ctx.allOperations.find((o) => o.method === 'get' && o.path === op.path);
  const shape = list && listShape(list);
  if (!list || !shape || ctx.scope.unavailable(list) !== undefined) return undefined;
  const exchange = await ctx.call(list, { path, authorization });
  if (exchange.response.status !== 200) return undefined;
  const links = parseLinkHeader(exchange.headers.get('link'));
  const self = exchange.request.url;
  const other = (rel: string) => {
    const url = linkWithRel(links, rel);
    return url !== undefined && new URL(url, self).href !== new URL(self).href;
  };
  if (other('next') || other('last')) return undefined;
  const items = itemsOf(shape, jsonBody(exchange));
  return items && { exchange, items: items.map(identity) };
}

/**
 * The collection read whole before a creation made alone and again after it: it grew by
 * exactly one item. A creation applied twice leaves a second resource nobody asked for.
 */
export function grewByOne(
  before: CollectionItems,
  after: CollectionItems,
): ReadBackMismatch | undefined {
  const added = after.items.length - before.items.length;
  if (added === 1) return undefined;
  return {
    message: `a creation made alone changed the collection by ${added} item(s) (${before.items.length} before, ${after.items.length} after): one creation adds exactly one`,
    expected: `${before.items.length + 1} items after the creation`,
  };
}

/** The numeric ids of the items of a 200 list answer, or undefined when it is not one. */
function idsOf(shape: ListShape, exchange: Exchange, field: string): number[] | undefined {
  if (exchange.response.status !== 200) return undefined;
  const items = itemsOf(shape, jsonBody(exchange));
  return items
    ?.map((item) => (isObject(item) ? item[field] : undefined))
    .filter((v): v is number => typeof v === 'number');
}
