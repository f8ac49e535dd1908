import { needsCredentials } from '../../../spec/operation-security.js';
import { buildRequest } from '../../http/build-request.js';
import type { ScenarioCheck } from '../check.js';
import { describeResponse, pathParams, validCall } from '../support/probe-support.js';

/**
 * head_requires_auth: HEAD of a GET that needs credentials needs them too (RFC 9110 9.3.2:
 * HEAD is GET without the body): without a token it is the documented 401, never the resource's
 * headers. A HEAD answered 405 or 501 is not supported at all (head_matches_get judges that).
 */
export const headRequiresAuth: ScenarioCheck = {
  kind: 'scenario',
  name: 'head_requires_auth',
  description: 'HEAD without credentials is 401 wherever GET needs credentials',
  async run(ctx, record) {
    const gets = ctx.operations.filter((op) => op.method === 'get');
    if (gets.length === 0) record.skip(undefined, 'no GET operation is selected');
    await ctx.each(gets, async (op) => {
      if (!needsCredentials(op)) return record.skip(op, 'the GET needs no credentials');
      if (!('401' in op.responses)) return record.skip(op, 'the spec documents no 401 for it');
      const params = await pathParams(ctx, op, { shared: true });
      if ('reason' in params) return record.skip(op, params.reason);
      if (ctx.stopped()) return;
      const call = { ...validCall(ctx, op, params), method: 'HEAD', authorization: null };
      const exchange = await ctx.client.send(buildRequest(op, call));
      const status = exchange.response.status;
      if (status === 405 || status === 501 || status === 429 || status >= 500)
        return record.skip(op, `HEAD answered ${status}: no verdict on its credentials`);
      if (status !== 401)
        return record.fail(
          op,
          {
            message: `HEAD ${op.path} without credentials answered ${status}, though GET needs them`,
            expected: '401 (as GET without credentials)',
            actual: describeResponse(exchange),
          },
          exchange,
        );
      record.pass(op, `HEAD ${op.path} without credentials: 401`);
    });
  },
};
