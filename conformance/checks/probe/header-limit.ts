import { declaredHttp } from '../../../spec/apikit-extensions.js';
import type { ScenarioCheck } from '../check.js';
import { describeResponse, parseJson } from '../support/probe-support.js';

/** The media type of the declared answer's problem, when it declares one. */
const PROBLEM_JSON = 'application/problem+json';

/**
 * header_limit, where the spec declares `x-apikit-http.headerLimit`: a request whose header
 * block is over `maxBytes` is answered `status` (RFC 6585: 431) in the declared response's
 * media type, with that status in a problem body. The answer is service-wide, before routing:
 * one GET of the base URL itself, sent through the client rather than as an operation's call,
 * since no operation documents it (decision 0107).
 */
export const headerLimit: ScenarioCheck = {
  kind: 'scenario',
  name: 'header_limit',
  description: 'A header block over the declared limit is answered with the declared status (431)',
  async run(ctx, record) {
    const limit = declaredHttp(ctx.spec).headerLimit;
    if (!limit)
      return record.skip(undefined, 'the spec does not declare x-apikit-http.headerLimit');
    const op = ctx.operations[0];
    if (!op) return record.skip(undefined, 'no operation is selected');
    const exchange = await ctx.client.send({
      method: 'GET',
      path: '/',
      headers: { Accept: 'application/json', 'X-Apikit-Padding': 'a'.repeat(limit.maxBytes) },
    });
    const { status } = exchange.response;
    if (status === 429) return record.skip(op, 'the rate limit answered first');
    const types = Object.keys(limit.response.content ?? {});
    const type = (exchange.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
    const body = parseJson(exchange.response.body) as { status?: unknown } | undefined;
    const wrong =
      status !== limit.status
        ? `answered ${status}`
        : types.length > 0 && !types.includes(type)
          ? `answered ${type || 'no Content-Type'}, not ${types.join(' or ')}`
          : types.includes(PROBLEM_JSON) && body?.status !== limit.status
            ? `a problem whose status is ${JSON.stringify(body?.status)}`
            : undefined;
    if (wrong)
      return record.fail(
        op,
        {
          message: `a request with ${limit.maxBytes} bytes of one header was ${wrong}`,
          expected: `${limit.status} ${types.join(' or ')} (the declared headerLimit)`,
          actual: describeResponse(exchange),
        },
        exchange,
      );
    record.pass(op, `a header block over ${limit.maxBytes} bytes: ${status} ${type}`);
  },
};
