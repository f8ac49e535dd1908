import { declaredHttp } from '../../../spec/apikit-extensions.js';
import type { ResponseCheck, ScenarioCheck } from '../check.js';
import { listShape } from '../support/list-shape.js';
import { readTargets } from '../support/read-targets.js';
import { describe } from '../support/stateful-support.js';

/**
 * `undated_lists` (a response check), where `x-apikit-http` declares `undatedLists`: every 200
 * of a GET answering a list or a page, other than the `dataSetDated` ones, carries no
 * Last-Modified, and its ETag, if any, is weak.
 */
export const undatedLists: ResponseCheck = {
  kind: 'response',
  name: 'undated_lists',
  description:
    'Where x-apikit-http declares undatedLists, lists and pages carry a weak ETag and no Last-Modified',
  check(exchange, op, ctx) {
    const declared = declaredHttp(ctx.spec);
    if (!declared.undatedLists || declared.dataSetDated.includes(op.operationId)) return [];
    if (exchange.response.status !== 200 || !['GET', 'HEAD'].includes(exchange.request.method))
      return [];
    if (op.method !== 'get' || !listShape(op)) return [];
    const date = exchange.headers.get('last-modified');
    const etag = exchange.headers.get('etag');
    const problems = [
      ...(date !== null ? [`Last-Modified: ${date}`] : []),
      ...(etag !== null && !etag.startsWith('W/') ? [`a strong ETag ${etag}`] : []),
    ];
    return problems.length === 0
      ? []
      : [
          {
            message: `a list answered with ${problems.join(' and ')} (x-apikit-http undatedLists)`,
            expected: 'a weak ETag and no Last-Modified',
            actual: `${describe(exchange)}: ${problems.join(', ')}`,
          },
        ];
  },
};

/**
 * `data_set_dated`, where `x-apikit-http` declares `dataSetDated`: the 200 answers of those GET
 * operations all carry one Last-Modified, the time the data set was created.
 */
export const dataSetDated: ScenarioCheck = {
  kind: 'scenario',
  name: 'data_set_dated',
  description:
    'Where x-apikit-http declares dataSetDated, those GETs (lists included) carry one Last-Modified',
  async run(ctx, record) {
    const names = declaredHttp(ctx.spec).dataSetDated;
    const ops = ctx.operations.filter(
      (op) => op.method === 'get' && names.includes(op.operationId),
    );
    if (ops.length === 0)
      return record.skip(undefined, 'x-apikit-http declares no selected dataSetDated GET');
    let first: { date: string; by: string } | undefined;
    for (const { op, target } of await readTargets(ctx, ops)) {
      if ('reason' in target) {
        record.skip(op, target.reason);
        continue;
      }
      const answer = await ctx.call(op, target.call);
      if (answer.response.status !== 200) {
        record.skip(op, `GET answered ${answer.response.status}, not 200`);
        continue;
      }
      const date = answer.headers.get('last-modified');
      if (date === null) {
        record.fail(
          op,
          {
            message: 'a GET dated by the data set carries no Last-Modified',
            expected: 'one',
            actual: describe(answer),
          },
          answer,
        );
        continue;
      }
      first ??= { date, by: op.operationId };
      if (Date.parse(date) !== Date.parse(first.date)) {
        record.fail(
          op,
          {
            message: `its Last-Modified differs from ${first.by}'s: both are dated by the data set`,
            expected: `Last-Modified: ${first.date} (as ${first.by})`,
            actual: `${describe(answer)}, Last-Modified: ${date}`,
          },
          answer,
        );
        continue;
      }
      record.pass(op, `Last-Modified ${date}, as ${first.by}`, answer);
    }
  },
};
