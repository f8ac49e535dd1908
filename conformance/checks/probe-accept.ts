import type { SpecOperation } from '../../spec/operations.js';
import type { ScenarioCheck } from './check.js';
import { credentialFor, describeResponse, pathParams, validCall } from './probe-support.js';

const isJson = (mediaType: string) => /^application\/(?:[\w.-]+\+)?json\b/i.test(mediaType);

/** True when some success answer of the operation has a JSON body. */
export function answersJson(op: SpecOperation): boolean {
  return Object.entries(op.responses).some(
    ([status, response]) =>
      status.startsWith('2') && Object.keys(response.content ?? {}).some(isJson),
  );
}

/**
 * not_acceptable: an operation refuses `Accept: text/html` with 406 (RFC 9110 15.5.7) when
 * the spec documents 406 for it. Otherwise valid, with real path
 * parameters, so that nothing else answers first.
 */
export const notAcceptable: ScenarioCheck = {
  kind: 'scenario',
  name: 'not_acceptable',
  description: 'Accept: text/html is refused with 406 where the spec documents 406',
  async run(ctx, record) {
    await ctx.each(ctx.operations, async (op) => {
      // Judged wherever the spec documents 406, bodiless answers (204) included: the spec, not
      // the shape of the success answer, says whether the Accept header is negotiated.
      if (!('406' in op.responses)) return record.skip(op, 'the spec documents no 406 for it');
      const credential = credentialFor(ctx, op);
      if (typeof credential === 'object' && 'reason' in credential)
        return record.skip(op, credential.reason);
      const params = await pathParams(ctx, op);
      if ('reason' in params) return record.skip(op, params.reason);
      if (ctx.stopped()) return;
      const exchange = await ctx.call(
        op,
        { ...validCall(ctx, op, params), accept: 'text/html' },
        credential,
      );
      const status = exchange.response.status;
      if (status === 429 || status >= 500)
        return record.skip(op, `the answer was ${status}, not a verdict on Accept`);
      if (status !== 406) {
        return record.fail(
          op,
          {
            message: `Accept: text/html was answered ${status}`,
            expected: '406',
            actual: describeResponse(exchange),
          },
          exchange,
        );
      }
      record.pass(op, 'Accept: text/html refused with 406');
    });
  },
};
