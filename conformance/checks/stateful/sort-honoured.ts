import { sortOrder, type SortOrder } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { ScenarioCheck } from '../check.js';
import { itemsOf, listShape } from '../support/list-shape.js';
import { readTargets } from '../support/read-targets.js';
import { describe, isObject, jsonBody, type Schema } from '../support/stateful-support.js';

type Key = { field: string; desc: boolean };

/**
 * `sort_honoured`, where a GET of a list declares `x-apikit-sort`: unsorted, the items come by
 * the default property ascending; with the sort parameter, for each field its pattern names,
 * ascending and descending, the page returned is in that order (ties by the tie-break
 * property ascending, nulls where declared, strings by code point). Reads only.
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
      const asks: { label: string; keys: Key[]; value?: string[] }[] = [
        { label: 'no sort', keys: [{ field: order.default, desc: false }] },
        ...sortFields(op, order).flatMap((field) =>
          [false, true].map((desc) => ({
            label: `${order.param}=${field},${desc ? 'desc' : 'asc'}`,
            keys: [{ field, desc }],
            value: [`${field},${desc ? 'desc' : 'asc'}`],
          })),
        ),
      ];
      const said: string[] = [];
      let failed = false;
      for (const ask of asks) {
        const query = ask.value ? { ...base, [order.param!]: ask.value } : base;
        const res = await ctx.call(op, { ...target.call, query });
        const items =
          res.response.status === 200 ? itemsOf(listShape(op)!, jsonBody(res)) : undefined;
        if (!items) {
          record.skip(op, `${ask.label}: ${describe(res)}, not a list`);
          failed = true;
          break;
        }
        const wrong = outOfOrder(items, ask.keys, order);
        if (wrong !== undefined) {
          fail(record, op, res, ask.label, items, wrong, order);
          failed = true;
          break;
        }
        said.push(`${ask.label} (${items.length})`);
      }
      if (!failed) record.pass(op, `in order: ${said.join(', ')}`);
    }
  },
};

function fail(
  record: Parameters<ScenarioCheck['run']>[1],
  op: SpecOperation,
  res: Exchange,
  label: string,
  items: unknown[],
  at: number,
  order: SortOrder,
): void {
  const show = (i: number) => JSON.stringify(items[i]).slice(0, 160);
  record.fail(
    op,
    {
      message: `${label}: item ${at + 1} comes before item ${at + 2} out of order`,
      expected: `ordered as asked (ties by ${order.tieBreak} ascending${order.nulls ? `, nulls ${order.nulls}` : ''}, strings by code point; x-apikit-sort)`,
      actual: `${show(at)} then ${show(at + 1)}`,
    },
    res,
  );
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
