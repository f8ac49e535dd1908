import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../../spec/operations.js';
import type { ScenarioCheck } from '../check.js';
import { judgePaging } from '../support/paging-judge.js';
import { listShape } from '../support/list-shape.js';
import { readTarget } from '../support/read-targets.js';
import { parameter, type Schema } from '../support/stateful-support.js';

/**
 * `paging_invariants`: a paged list honours its `page` and `size` parameters: the default
 * size is the spec's default, `size=1` gives at most one item, totals agree (totalPages =
 * ceil(totalElements / size)) and page sizes follow from them, a page past the end is 200
 * and empty, items do not repeat across pages, and a documented `Link` header has `first` and
 * `last`, `next` exactly when a next page exists, and keeps the other query parameters.
 */
export const pagingInvariants: ScenarioCheck = {
  kind: 'scenario',
  name: 'paging_invariants',
  description:
    'page/size are honoured: default size, size=1, consistent totals, empty page past the end, no repeats, Link first/last/next',
  async run(ctx, record) {
    const ops = ctx.operations.filter((op) => op.method === 'get' && isPaged(op));
    if (ops.length === 0) {
      record.skip(undefined, 'no list operation has page and size parameters or a paged answer');
      return;
    }
    for (const op of ops) {
      if (ctx.stopped()) return;
      const page = intParam(op, 'page');
      const size = intParam(op, 'size');
      const shape = listShape(op);
      if (!page || !size || !shape) {
        record.skip(op, 'its answer looks paged, but it has no integer page and size parameters');
        continue;
      }
      const target = await readTarget(ctx, op);
      if ('reason' in target) {
        record.skip(op, target.reason);
        continue;
      }
      const problems = await judgePaging(ctx, op, target, shape, page, size);
      if (problems.length === 0) record.pass(op, 'paging invariants held');
      else
        record.fail(
          op,
          {
            message: problems.map((p) => p.message).join('; '),
            expected: problems[0]!.expected,
            actual: problems[0]!.actual,
          },
          problems[0]!.exchange,
        );
    }
  },
};

/** A list answered in pages: a `content` page with totals, or integer `page` and `size` parameters. */
export function isPaged(op: SpecOperation): boolean {
  const shape = listShape(op);
  const paged = shape?.property === 'content' && 'totalElements' in shape.pageProperties;
  return paged || Boolean(intParam(op, 'page') && intParam(op, 'size'));
}

/** The query parameter `name` when it is an integer. */
export function intParam(op: SpecOperation, name: string): OpenAPIV3.ParameterObject | undefined {
  const p = parameter(op, 'query', name);
  return (p?.schema as Schema | undefined)?.type === 'integer' ? p : undefined;
}
