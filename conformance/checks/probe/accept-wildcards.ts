import type { ScenarioCheck } from '../check.js';
import {
  credentialFor,
  describeResponse,
  pathParams,
  validCall,
} from '../support/probe-support.js';

/** Accept values that admit any JSON media type (RFC 9110 12.5.1). */
const WILDCARDS = ['*/*', 'application/*'];

/**
 * `accept_wildcards`: where a GET documents 406 (so the target negotiates Accept) and a JSON
 * 200, `Accept: *\/*` and `Accept: application/*` admit JSON and are not refused with 406: the
 * first such operation, two requests. A 429 or 5xx is no verdict.
 */
export const acceptWildcards: ScenarioCheck = {
  kind: 'scenario',
  name: 'accept_wildcards',
  description: 'Accept: */* and application/* are not refused with 406 where JSON is served',
  async run(ctx, record) {
    const ops = ctx.operations.filter(
      (op) =>
        op.method === 'get' &&
        '406' in op.responses &&
        Object.keys((op.responses['200'] as { content?: object } | undefined)?.content ?? {}).some(
          (type) => /^application\/([\w.-]+\+)?json$/i.test(type),
        ),
    );
    for (const op of ops) {
      if (ctx.stopped()) return;
      const credential = credentialFor(ctx, op);
      if (typeof credential === 'object' && 'reason' in credential) continue;
      const params = await pathParams(ctx, op, { shared: true });
      if ('reason' in params) continue;
      for (const accept of WILDCARDS) {
        const exchange = await ctx.call(op, { ...validCall(ctx, op, params), accept }, credential);
        const status = exchange.response.status;
        if (status === 406)
          return record.fail(
            op,
            {
              message: `Accept: ${accept} was refused with 406`,
              expected: `the 200 (Accept: ${accept} admits application/json)`,
              actual: describeResponse(exchange),
            },
            exchange,
          );
      }
      return record.pass(op, `Accept: ${WILDCARDS.join(' and ')} were not refused`);
    }
    record.skip(undefined, 'no selected GET documents 406 and a JSON 200');
  },
};
