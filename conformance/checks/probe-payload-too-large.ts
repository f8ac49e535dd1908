import type { ScenarioCheck } from './check.js';
import {
  bodyMediaType,
  credentialFor,
  describeResponse,
  pathParams,
  validCall,
} from './probe-support.js';

/** Comfortably over any sane JSON API's body limit (ours is 100 KiB), and still cheap on loopback. */
const OVERSIZED_BYTES = 1024 * 1024;

/**
 * payload_too_large: operations that document 413 refuse a 1 MiB JSON body with 413 (RFC 9110
 * 15.5.14). The body is valid JSON, sent with the operation's media type and the right
 * credentials, at real path parameters, so that nothing but its size is wrong.
 */
export const payloadTooLarge: ScenarioCheck = {
  kind: 'scenario',
  name: 'payload_too_large',
  description: 'A 1 MiB body is refused with 413 where the spec documents 413',
  async run(ctx, record) {
    await ctx.each(ctx.operations, async (op) => {
      if (!('413' in op.responses)) return record.skip(op, 'the spec documents no 413 for it');
      const credential = credentialFor(ctx, op);
      if (typeof credential === 'object' && 'reason' in credential)
        return record.skip(op, credential.reason);
      const params = await pathParams(ctx, op);
      if ('reason' in params) return record.skip(op, params.reason);
      if (ctx.stopped()) return;
      const rawBody = JSON.stringify({ padding: 'x'.repeat(OVERSIZED_BYTES) });
      const call = {
        ...validCall(ctx, op, params),
        rawBody,
        contentType: bodyMediaType(op) ?? 'application/json',
      };
      delete call.body;
      const exchange = await ctx.call(op, call, credential);
      const status = exchange.response.status;
      if (status === 429 || status >= 500)
        return record.skip(op, `the answer was ${status}, not a verdict on size`);
      if (status !== 413) {
        return record.fail(
          op,
          {
            message: `a 1 MiB body was answered ${status}`,
            expected: '413',
            actual: describeResponse(exchange),
          },
          exchange,
        );
      }
      record.pass(op, 'a 1 MiB body refused with 413');
    });
  },
};
