import { isDeepStrictEqual } from 'node:util';
import type { Exchange } from '../../http/target-client.js';
import type { ScenarioCheck } from '../check.js';
import { readTargets } from '../support/read-targets.js';
import {
  callAs,
  describe,
  isSuccess,
  jsonBody,
  sendOtherMethod,
} from '../support/stateful-support.js';

/**
 * `get_is_safe`: reading changes nothing (RFC 9110 9.2.1). Two GETs in a row answer the same
 * body and ETag, and so does a GET after a HEAD and an OPTIONS of the same URL.
 */
export const getIsSafe: ScenarioCheck = {
  kind: 'scenario',
  name: 'get_is_safe',
  description:
    'Two GETs in a row answer the same body and ETag; HEAD and OPTIONS leave the resource unchanged',
  async run(ctx, record) {
    const ops = ctx.operations.filter((op) => op.method === 'get');
    if (ops.length === 0) {
      record.skip(undefined, 'no GET operation is selected');
      return;
    }
    const targets = await readTargets(ctx, ops);
    await ctx.each(targets, async ({ op, target }) => {
      if ('reason' in target) {
        record.skip(op, target.reason);
        return;
      }
      const first = await callAs(ctx, op, target.call);
      if (!isSuccess(first.response.status)) {
        record.skip(op, `GET answered ${first.response.status}, so there is nothing to keep safe`);
        return;
      }
      const second = await callAs(ctx, op, target.call);
      if (!same(first, second)) {
        record.fail(
          op,
          {
            message:
              'two GETs in a row, with nothing in between, answered different representations',
            expected: view(first),
            actual: view(second),
          },
          second,
        );
        return;
      }
      await sendOtherMethod(ctx, op, { ...target.call, method: 'HEAD' });
      await sendOtherMethod(ctx, op, { ...target.call, method: 'OPTIONS' });
      const third = await callAs(ctx, op, target.call);
      if (!same(second, third)) {
        record.fail(
          op,
          {
            message: 'the representation changed after a HEAD and an OPTIONS of the same URL',
            expected: view(second),
            actual: view(third),
          },
          third,
        );
        return;
      }
      record.pass(op, 'GET, GET, HEAD, OPTIONS, GET: the representation did not change', third);
    });
  },
};

function same(a: Exchange, b: Exchange): boolean {
  if (a.response.status !== b.response.status) return false;
  if (a.headers.get('etag') !== b.headers.get('etag')) return false;
  const [x, y] = [jsonBody(a), jsonBody(b)];
  return x !== undefined || y !== undefined
    ? isDeepStrictEqual(x, y)
    : a.response.body === b.response.body;
}

function view(exchange: Exchange): string {
  const body = exchange.response.body;
  return `${describe(exchange)}, ETag ${exchange.headers.get('etag') ?? '(none)'}, body ${body.length > 300 ? `${body.slice(0, 300)}…` : body}`;
}
