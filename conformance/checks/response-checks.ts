import type { ResponseViolation } from '../../spec/response-validator.js';
import type { CheckFailure, ResponseCheck } from './check.js';

/** The validator's verdicts of one kind, as check failures. */
function violations(kind: ResponseViolation['kind']): ResponseCheck['check'] {
  return (exchange, op, ctx) =>
    ctx.validator
      .validate(op.operationId, {
        method: exchange.request.method,
        status: exchange.response.status,
        headers: exchange.headers,
        body: exchange.response.body || null,
      })
      .filter((v) => v.kind === kind)
      .map((v): CheckFailure => ({ message: v.message }));
}

/** Status, media type, schema and headers of every response, judged against the spec. */
export const responseChecks: ResponseCheck[] = [
  {
    kind: 'response',
    name: 'not_a_server_error',
    description: 'No response is a 5xx: whatever a client sends, the server must not fail',
    check: (exchange) =>
      exchange.response.status >= 500
        ? [
            {
              message: `the server answered ${exchange.response.status}`,
              expected: 'a status below 500',
              actual: String(exchange.response.status),
            },
          ]
        : [],
  },
  {
    kind: 'response',
    name: 'status_code_conformance',
    description: 'Every status is one the spec documents for the operation',
    check: violations('status'),
  },
  {
    kind: 'response',
    name: 'content_type_conformance',
    description: 'Every body has a media type the spec documents for that status',
    check: violations('content-type'),
  },
  {
    kind: 'response',
    name: 'response_schema_conformance',
    description: 'Every body validates against the schema documented for its status',
    check: violations('body'),
  },
  {
    kind: 'response',
    name: 'response_headers_conformance',
    description: 'Required headers are present and every documented header matches its schema',
    check: violations('header'),
  },
];
