import type { SpecOperation } from '../../../spec/operations.js';
import type { OperationCall } from '../../http/build-request.js';
import type { RunContext } from '../../run-context.js';
import type { CheckFailure, ScenarioCheck } from '../check.js';
import type { Exchange } from '../../http/target-client.js';
import { identity, itemsOf, listShape, type ListShape } from '../support/list-shape.js';
import { readTargets } from '../support/read-targets.js';
import {
  describe,
  isObject,
  jsonBody,
  properties,
  type Schema,
} from '../support/stateful-support.js';

type SpecParameter = SpecOperation['parameters'][number];

/**
 * `filter_honoured`: a list filtered by an enum query parameter that names a property of its
 * items (`status=PAID`) returns only items with that value, for every value of the enum, and,
 * where one page holds the whole list (the size parameter's maximum), every item of the
 * unfiltered list that has it.
 */
export const filterHonoured: ScenarioCheck = {
  kind: 'scenario',
  name: 'filter_honoured',
  description:
    'For every value of an enum query parameter named like an item property, every item returned has that value',
  async run(ctx, record) {
    const lists = ctx.operations
      .filter((op) => op.method === 'get')
      .map((op) => ({ op, shape: listShape(op) }))
      .filter((l) => l.shape !== undefined);
    const ops = lists
      .map(({ op, shape }) => {
        const itemProps = properties(shape?.itemSchema);
        const filters = op.parameters.filter(
          (p) =>
            p.in === 'query' &&
            (p.schema as Schema | undefined)?.enum?.length &&
            itemProps[p.name] !== undefined,
        );
        return { op, shape: shape!, filters };
      })
      .filter(({ op, filters }) => {
        if (filters.length === 0)
          record.skip(op, 'no enum query parameter names a property of its items');
        return filters.length > 0;
      });
    if (ops.length === 0) {
      if (lists.length === 0) record.skip(undefined, 'no list operation is selected');
      return;
    }
    const targets = await readTargets(
      ctx,
      ops.map((o) => o.op),
    );
    for (const [i, { op, target }] of targets.entries()) {
      if ('reason' in target) {
        record.skip(op, target.reason);
        continue;
      }
      const { shape, filters } = ops[i]!;
      const sized = { ...target.call.query, ...largestPage(op) };
      const all = await wholeList(ctx, op, { ...target.call, query: sized }, shape);
      let judged = 0;
      let failed = false;
      for (const filter of filters) {
        for (const value of (filter.schema as Schema).enum ?? []) {
          if (failed) break;
          const res = await ctx.call(op, {
            ...target.call,
            query: { ...sized, [filter.name]: value },
          });
          const verdict = judgeFiltered(res, shape, filter, value, all);
          if (typeof verdict === 'number') judged += verdict;
          else {
            failed = true;
            record.fail(op, verdict, res);
          }
        }
      }
      if (!failed)
        record.pass(
          op,
          `every value of ${filters.map((f) => f.name).join(', ')} was honoured (${judged} items judged)`,
        );
    }
  },
};

/**
 * One filtered answer judged: the number of items it held when each has the value and none of
 * the unfiltered list's items with it is missing, else what is wrong.
 */
function judgeFiltered(
  res: Exchange,
  shape: ListShape,
  filter: SpecParameter,
  value: unknown,
  all: unknown[] | undefined,
): number | CheckFailure {
  const items = res.response.status === 200 ? itemsOf(shape, jsonBody(res)) : undefined;
  if (!items)
    return {
      message: `filtering by ${filter.name}=${String(value)}, a documented value, gave no list`,
      expected: '200 with a list of items',
      actual: describe(res),
    };
  const wrong = items.filter((item) => !isObject(item) || item[filter.name] !== value);
  if (wrong.length > 0)
    return {
      message: `${wrong.length} of ${items.length} items returned for ${filter.name}=${String(value)} have another ${filter.name}`,
      expected: `every item with ${filter.name} ${JSON.stringify(value)}`,
      actual: wrong
        .slice(0, 3)
        .map((item) =>
          JSON.stringify(isObject(item) ? { id: item.id, [filter.name]: item[filter.name] } : item),
        )
        .join(', '),
    };
  const total = jsonBody(res);
  const whole = !(isObject(total) && Number(total.totalElements) > items.length);
  // Without the filter means every item only where the filter has no default.
  const unfiltered = (filter.schema as Schema).default === undefined ? all : undefined;
  const missing = unfiltered && whole ? missingFrom(unfiltered, items, filter.name, value) : [];
  if (missing.length > 0)
    return {
      message: `${missing.length} items with ${filter.name}=${String(value)} in the unfiltered list are missing from the filtered one`,
      expected: `every item with ${filter.name} ${JSON.stringify(value)}, as the unfiltered list shows them`,
      actual: `missing: ${missing.slice(0, 3).join(', ')}`,
    };
  return items.length;
}

/** The query asking for the largest page the size parameter allows, if it has a maximum. */
function largestPage(op: SpecOperation): Record<string, number> {
  const size = op.parameters.find(
    (p) => p.in === 'query' && /^(size|limit|per_?page|page_?size)$/i.test(p.name),
  );
  const max = (size?.schema as Schema | undefined)?.maximum;
  return size && typeof max === 'number' ? { [size.name]: max } : {};
}

/** The whole unfiltered list, or undefined when a page of it does not hold it all. */
async function wholeList(
  ctx: RunContext,
  op: SpecOperation,
  call: OperationCall,
  shape: ListShape,
): Promise<unknown[] | undefined> {
  const res = await ctx.call(op, call);
  const body = jsonBody(res);
  const items = res.response.status === 200 ? itemsOf(shape, body) : undefined;
  const total = isObject(body) ? body.totalElements : undefined;
  if (!items || (typeof total === 'number' && total > items.length)) return undefined;
  return items;
}

/**
 * The identities of the items of `all` with `name` = `value` that `filtered` lacks; none when
 * `filtered` holds an item `all` does not (the two answers are not of the same data: a mock
 * making items up, say).
 */
function missingFrom(all: unknown[], filtered: unknown[], name: string, value: unknown): string[] {
  const listed = new Set(filtered.map(identity));
  const whole = new Set(all.map(identity));
  if ([...listed].some((id) => !whole.has(id))) return [];
  return all
    .filter((item) => isObject(item) && item[name] === value)
    .map(identity)
    .filter((id) => !listed.has(id));
}
