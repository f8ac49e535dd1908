import { serviceDeclaration } from '../../../spec/apikit-extensions.js';
import type { CheckFailure, ResponseCheck } from '../check.js';
import { problemBody } from './problem-body.js';

/** A request header under which an answer may be a replay of an earlier request's. */
const REPLAYABLE = 'idempotency-key';

/**
 * `problem_request_id` (a response check), where the spec declares
 * `x-apikit-service.requestId` and `problemRequestId`: a problem body's request id property
 * holds the very value of the answer's request id header, so that a client quoting either
 * names the same request. A problem body without the property is the schema's to judge; an
 * answer to a request carrying an `Idempotency-Key` is not judged: it may replay an earlier
 * answer, whose body names the earlier request.
 */
export const problemRequestId: ResponseCheck = {
  kind: 'response',
  name: 'problem_request_id',
  description:
    "A problem body repeats the answer's request id header (x-apikit-service.problemRequestId)",
  check(exchange, _op, ctx): CheckFailure[] {
    const { requestId, problemRequestId: property } = serviceDeclaration(ctx.spec);
    if (!requestId || !property) return [];
    const body = problemBody(exchange);
    if (!body) return [];
    const sent = Object.keys(exchange.request.headers ?? {}).map((h) => h.toLowerCase());
    if (sent.includes(REPLAYABLE)) return [];
    const header = exchange.headers.get(requestId);
    const value: unknown = Reflect.get(body, property);
    if (value === undefined || header === null || value === header) return [];
    return [
      {
        message: `the problem body's ${property} is not the answer's ${requestId}`,
        expected: `${property}: ${JSON.stringify(header)}`,
        actual: `${property}: ${JSON.stringify(value)}`,
      },
    ];
  },
};
