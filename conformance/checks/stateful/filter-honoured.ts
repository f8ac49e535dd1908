import type { ScenarioCheck } from '../check.js';
import { itemsOf, listShape } from '../support/list-shape.js';
import { readTargets } from '../support/read-targets.js';
import {
  describe,
  isObject,
  jsonBody,
  properties,
  type Schema,
} from '../support/stateful-support.js';

/**
 * `filter_honoured`: a list filtered by an enum query parameter that names a property of its
 * items (`status=PAID`) returns only items with that value, for every value of the enum.
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
      let judged = 0;
      let failed = false;
      for (const filter of filters) {
        for (const value of (filter.schema as Schema).enum ?? []) {
          if (failed) break;
          const res = await ctx.call(op, {
            ...target.call,
            query: { ...target.call.query, [filter.name]: value },
          });
          const items = res.response.status === 200 ? itemsOf(shape, jsonBody(res)) : undefined;
          if (!items) {
            failed = true;
            record.fail(
              op,
              {
                message: `filtering by ${filter.name}=${String(value)}, a documented value, gave no list`,
                expected: '200 with a list of items',
                actual: describe(res),
              },
              res,
            );
            break;
          }
          const wrong = items.filter((item) => !isObject(item) || item[filter.name] !== value);
          judged += items.length;
          if (wrong.length > 0) {
            failed = true;
            record.fail(
              op,
              {
                message: `${wrong.length} of ${items.length} items returned for ${filter.name}=${String(value)} have another ${filter.name}`,
                expected: `every item with ${filter.name} ${JSON.stringify(value)}`,
                actual: wrong
                  .slice(0, 3)
                  .map((item) =>
                    JSON.stringify(
                      isObject(item) ? { id: item.id, [filter.name]: item[filter.name] } : item,
                    ),
                  )
                  .join(', '),
              },
              res,
            );
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
