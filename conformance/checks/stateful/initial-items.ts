import { isDeepStrictEqual } from 'node:util';
import { initialItems } from '../../../spec/apikit-extensions.js';
import type { ScenarioCheck } from '../check.js';
import { itemsOf, listShape } from '../support/list-shape.js';
import { readBackEvidence } from '../support/read-back.js';
import { createWith, follow } from '../support/spec-links.js';
import { describe, isObject, jsonBody } from '../support/stateful-support.js';

/**
 * `initial_items`, where a creating operation declares `x-apikit-initial-items`: a new
 * resource, read through each named link, lists items matching each declared object (a new
 * user holds the role USER). One new resource per creating operation, left to cleanup.
 */
export const initialItemsCheck: ScenarioCheck = {
  kind: 'scenario',
  name: 'initial_items',
  description:
    'A new resource starts with the items its create declares in x-apikit-initial-items (a new user holds USER)',
  async run(ctx, record) {
    const producers = ctx.operations.filter(
      (op) => op.method === 'post' && initialItems(op) && ctx.fixtures.isProducer(op),
    );
    if (producers.length === 0)
      return record.skip(undefined, 'no selected creating POST declares x-apikit-initial-items');
    await ctx.each(producers, async (producer) => {
      const made = await createWith(ctx, producer);
      if ('reason' in made) return record.skip(producer, made.reason);
      const said: string[] = [];
      for (const { link: name, contains } of initialItems(producer)!) {
        const link = made.links.find((l) => l.name === name);
        const shape = link && listShape(link.target);
        if (!link || !shape) {
          record.skip(producer, `link ${name}: no such link to a GET of a list`);
          continue;
        }
        const read = await follow(ctx, link);
        if ('reason' in read) return record.skip(producer, read.reason);
        const items = read.response.status === 200 ? itemsOf(shape, jsonBody(read)) : undefined;
        if (!items) return record.skip(producer, `reading ${name} answered ${describe(read)}`);
        const missing = contains.filter((wanted) => !items.some((item) => matches(item, wanted)));
        if (missing.length > 0)
          return record.fail(
            producer,
            {
              message: `a new resource's ${link.target.operationId} lacks what it starts with`,
              expected: `items matching ${JSON.stringify(missing)} (x-apikit-initial-items)`,
              actual: readBackEvidence(made.exchange, read, read.response.body.slice(0, 200)),
            },
            made.exchange,
          );
        said.push(`${link.target.operationId} holds ${JSON.stringify(contains)}`);
      }
      if (said.length > 0) record.pass(producer, `a new resource: ${said.join('; ')}`);
    });
  },
};

/** Every property of `wanted` is in `item`, equal. */
function matches(item: unknown, wanted: Record<string, unknown>): boolean {
  return isObject(item) && Object.entries(wanted).every(([k, v]) => isDeepStrictEqual(item[k], v));
}
