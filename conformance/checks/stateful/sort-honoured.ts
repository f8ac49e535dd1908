import { sortOrder, type SortOrder } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { ScenarioCheck } from '../check.js';
import { identity, itemsOf, listShape } from '../support/list-shape.js';
import { readTargets } from '../support/read-targets.js';
import { callAs, describe, isObject, jsonBody, type Schema } from '../support/stateful-support.js';

type Key = { field: string; desc: boolean };

/** One request of the check: its sort keys as asked, and what it is compared with. */
interface Ask {
  label: string;
  keys: Key[];
  value?: string[];
  /** The size asked for, when not the largest (the page must be the head of `whole`). */
  size?: number;
  /** The label of the ask over the whole list in the same order. */
  whole?: string;
}

/**
 * `sort_honoured`, where a GET of a list declares `x-apikit-sort`: unsorted, the items come by
 * the default property ascending; with the sort parameter, for each field its pattern names,
 * ascending and descending, the page returned is in that order (ties by the tie-break
 * property ascending, nulls where declared, strings by code point); a field without a
 * direction sorts ascending; two keys sort by the first, then the second; and a small page of
 * a sorted list is the head of the whole sorted list (sorted before paging). Reads only.
 */
export const sortHonoured: ScenarioCheck = {
  kind: 'scenario',
  name: 'sort_honoured',
  description:
    'Lists come in the order x-apikit-sort declares: by default, and for every field and direction of the sort parameter',
  async run(ctx, record) {
    const ops = ctx.operations.filter(
      (op) => op.method === 'get' && sortOrder(op) && listShape(op),
    );
    if (ops.length === 0)
      return record.skip(undefined, 'no selected list operation declares x-apikit-sort');
    for (const { op, target } of await readTargets(ctx, ops)) {
      if ('reason' in target) {
        record.skip(op, target.reason);
        continue;
      }
      const order = sortOrder(op) as SortOrder;
      const sizeParam = op.parameters.find(
        (p) => p.in === 'query' && /^(size|limit|per_?page|page_?size)$/i.test(p.name),
      );
      const max = (sizeParam?.schema as Schema | undefined)?.maximum;
      const base = { ...target.call.query, ...(sizeParam && max ? { [sizeParam.name]: max } : {}) };
      const fields = sortFields(op, order);
      const asks = asksFor(order, fields, sizeParam?.name, max);
      const said: string[] = [];
      const seen = new Map<string, unknown[]>();
      let failed = false;
      for (let i = 0; i < asks.length && !failed; i++) {
        const ask = asks[i]!;
        const query = {
          ...base,
          ...(ask.value ? { [order.param!]: ask.value } : {}),
          ...(ask.size && sizeParam ? { [sizeParam.name]: ask.size } : {}),
        };
        const res = await callAs(ctx, op, { ...target.call, query });
        const items =
          res.response.status === 200 ? itemsOf(listShape(op)!, jsonBody(res)) : undefined;
        if (!items) {
          record.skip(op, `${ask.label}: ${describe(res)}, not a list`);
          failed = true;
          break;
        }
        const wrong = outOfOrder(items, ask.keys, order);
        if (wrong !== undefined) {
          fail(record, op, res, ask, items, wrong, order);
          failed = true;
          break;
        }
        const head = ask.whole !== undefined ? seen.get(ask.whole) : undefined;
        if (head && head.length <= Number(max) && !sameHead(items, head)) {
          record.fail(
            op,
            {
              message: `${ask.label}: the page is not the head of the whole list in that order (sorted after paging?)`,
              expected: `${head.slice(0, items.length).map(identity).join(', ')} (as ${ask.whole} lists them first)`,
              actual: items.map(identity).join(', '),
            },
            res,
          );
          failed = true;
          break;
        }
        seen.set(ask.label, items);
        said.push(`${ask.label} (${items.length})`);
        // Two keys, once the unsorted list shows a field with ties: by it, then by another.
        if (i === 0 && order.param) {
          const two = twoKeys(items, fields, order);
          if (two)
            asks.push({
              label: `${order.param}=${two[0]},asc&${order.param}=${two[1]},desc`,
              keys: [
                { field: two[0], desc: false },
                { field: two[1], desc: true },
              ],
              value: [`${two[0]},asc`, `${two[1]},desc`],
            });
        }
      }
      if (!failed) record.pass(op, `in order: ${said.join(', ')}`);
    }
  },
};

/** The asks of one list: unsorted, each field both ways, a bare field, a small sorted page. */
function asksFor(
  order: SortOrder,
  fields: string[],
  sizeName: string | undefined,
  max: unknown,
): Ask[] {
  const asks: Ask[] = [
    { label: 'no sort', keys: [{ field: order.default, desc: false }] },
    ...fields.flatMap((field) =>
      [false, true].map((desc) => ({
        label: `${order.param}=${field},${desc ? 'desc' : 'asc'}`,
        keys: [{ field, desc }],
        value: [`${field},${desc ? 'desc' : 'asc'}`],
      })),
    ),
  ];
  const other = fields.find((f) => f !== order.default && f !== order.tieBreak);
  if (other) {
    // A field alone sorts ascending.
    asks.push({
      label: `${order.param}=${other}`,
      keys: [{ field: other, desc: false }],
      value: [other],
    });
    // Sorted before paging: a page of 2 is the head of the whole list in that order.
    if (sizeName && typeof max === 'number' && max > 2)
      asks.push({
        label: `${order.param}=${other},desc&${sizeName}=2`,
        keys: [{ field: other, desc: true }],
        value: [`${other},desc`],
        size: 2,
        whole: `${order.param}=${other},desc`,
      });
  }
  return asks;
}

/** The field (not the tie-break) whose values repeat most in `items`, and another after it. */
function twoKeys(
  items: unknown[],
  fields: string[],
  order: SortOrder,
): [string, string] | undefined {
  let best: [string, number] | undefined;
  for (const field of fields) {
    if (field === order.tieBreak || field === order.default) continue;
    const values = items.filter(isObject).map((item) => JSON.stringify(item[field] ?? null));
    const repeats = values.length - new Set(values).size;
    if (repeats > 0 && (!best || repeats > best[1])) best = [field, repeats];
  }
  const second =
    best && fields.find((f) => f !== best![0] && f !== order.tieBreak && f !== order.default);
  return best && second ? [best[0], second] : undefined;
}

function sameHead(page: unknown[], whole: unknown[]): boolean {
  return page.every((item, i) => identity(item) === identity(whole[i]));
}

function fail(
  record: Parameters<ScenarioCheck['run']>[1],
  op: SpecOperation,
  res: Exchange,
  ask: Ask,
  items: unknown[],
  at: number,
  order: SortOrder,
): void {
  const show = (i: number) => JSON.stringify(items[i]).slice(0, 160);
  record.fail(
    op,
    {
      message: `${ask.label}: item ${at + 1} comes before item ${at + 2} out of order (${why(items[at], items[at + 1], ask.keys, order)})`,
      expected: `ordered as asked (ties by ${order.tieBreak} ascending${order.nulls ? `, nulls ${order.nulls}` : ''}, strings by code point; x-apikit-sort)`,
      actual: `${show(at)} then ${show(at + 1)}`,
    },
    res,
  );
}

/** Which part of the order two neighbours break: a tie, a null, a string, or the direction. */
function why(a: unknown, b: unknown, keys: Key[], order: SortOrder): string {
  if (!isObject(a) || !isObject(b)) return 'not objects';
  for (const { field, desc } of keys) {
    const x = a[field] ?? null;
    const y = b[field] ?? null;
    if (x === null && y === null) continue;
    if (x === null || y === null) return `null ${field} not ${order.nulls}`;
    const c = compareValues(x, y);
    if (c === 0) continue;
    if (
      typeof x === 'string' &&
      typeof y === 'string' &&
      Math.sign(x.localeCompare(y)) !== Math.sign(c)
    )
      return `${field} not compared by code point`;
    return `not ${field} ${desc ? 'descending' : 'ascending'}`;
  }
  return `a tie not broken by ${order.tieBreak} ascending`;
}

/** The fields the sort parameter's pattern names: `^(id|name|...)(,(asc|desc))?$`. */
function sortFields(op: SpecOperation, order: SortOrder): string[] {
  const param =
    order.param && op.parameters.find((p) => p.in === 'query' && p.name === order.param);
  if (!param) return [];
  const schema = param.schema as Schema | undefined;
  const pattern = (schema?.type === 'array' ? (schema.items as Schema | undefined) : schema)
    ?.pattern;
  const alternatives = pattern && /^\^?\(([\w|]+)\)/.exec(pattern)?.[1];
  return alternatives ? alternatives.split('|') : [];
}

/** The index of the first item that sorts after the next one, if any. */
function outOfOrder(items: unknown[], keys: Key[], order: SortOrder): number | undefined {
  for (let i = 0; i + 1 < items.length; i++) {
    const a = items[i];
    const b = items[i + 1];
    if (!isObject(a) || !isObject(b)) continue;
    if (compare(a, b, [...keys, { field: order.tieBreak, desc: false }], order) > 0) return i;
  }
  return undefined;
}

function compare(
  a: Record<string, unknown>,
  b: Record<string, unknown>,
  keys: Key[],
  order: SortOrder,
): number {
  for (const { field, desc } of keys) {
    const x = a[field] ?? null;
    const y = b[field] ?? null;
    if (x === null || y === null) {
      if (x === y || !order.nulls) continue;
      return (x === null ? 1 : -1) * (order.nulls === 'last' ? 1 : -1);
    }
    const c = compareValues(x, y);
    if (c !== 0) return desc ? -c : c;
  }
  return 0;
}

function compareValues(x: unknown, y: unknown): number {
  if (typeof x === 'number' && typeof y === 'number') return x - y;
  if (typeof x === 'string' && typeof y === 'string') return byCodePoint(x, y);
  return 0;
}

/** Strings by Unicode code point (not UTF-16 units, not locale). */
export function byCodePoint(x: string, y: string): number {
  const a = Array.from(x);
  const b = Array.from(y);
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = a[i]!.codePointAt(0)! - b[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
}
