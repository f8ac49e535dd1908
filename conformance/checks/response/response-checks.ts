import type { ResponseValidator, ResponseViolation } from '../../../spec/response-validator.js';
import type { Exchange } from '../../http/target-client.js';
import type { CheckFailure, ResponseCheck } from '../check.js';
import { acceptPatchMatches } from './accept-patch-matches.js';
import { allowMatchesPath } from './allow-matches-path.js';
import { distinctErrors } from './distinct-errors.js';
import { fixedCatalogAnswers } from './fixed-catalog-answers.js';
import { pageLinksEverywhere } from './page-links-everywhere.js';
import { sameValidatorSameBody } from './same-validator-same-body.js';
import { cacheControlPolicy } from './cache-control-policy.js';
import { headDeclaredHeaders } from './head-declared-headers.js';
import { corsAllowOrigin } from './cors-allow-origin.js';
import { problemInstance } from './problem-instance.js';
import { lastModifiedFromBody } from './last-modified-from-body.js';
import { dataSetDateKept } from './data-set-date-kept.js';
import { notModifiedEtag } from './not-modified-etag.js';
import { notModifiedWhenMatched } from './not-modified-when-matched.js';
import { resourceIdentity } from './resource-identity.js';

/**
 * The validator's verdict on an exchange as an operation's answer, worked out once and shared
 * by the four checks that each report one kind of it (status, media type, body, headers):
 * validating parses and checks the whole body, and every exchange of a run is judged.
 */
const verdicts = new WeakMap<
  Exchange,
  { validator: ResponseValidator; operationId: string; violations: ResponseViolation[] }
>();

function violationsOf(
  validator: ResponseValidator,
  operationId: string,
  exchange: Exchange,
): ResponseViolation[] {
  const known = verdicts.get(exchange);
  if (known && known.validator === validator && known.operationId === operationId)
    return known.violations;
  const violations = validator.validate(operationId, {
    method: exchange.request.method,
    status: exchange.response.status,
    headers: exchange.headers,
    body: exchange.response.body || null,
  });
  verdicts.set(exchange, { validator, operationId, violations });
  return violations;
}

/** The body shown as `actual` of a schema failure: enough to see the wrong part. */
const BODY_EXCERPT = 600;

/** The validator's verdicts of one kind, as check failures. */
function violations(kind: ResponseViolation['kind']): ResponseCheck['check'] {
  return (exchange, op, ctx) =>
    violationsOf(ctx.validator, op.operationId, exchange)
      .filter((v) => v.kind === kind)
      .map((v): CheckFailure =>
        kind === 'body'
          ? {
              message: v.message,
              expected: `a body valid against the schema documented for ${exchange.response.status}`,
              actual: bodyExcerpt(exchange),
            }
          : { message: v.message },
      );
}

/** Status, media type and the body as it came, cut (with its length said) when long. */
function bodyExcerpt(exchange: Exchange): string {
  const body = exchange.response.body;
  const type = exchange.headers.get('content-type') ?? '(no Content-Type)';
  const shown =
    body.length > BODY_EXCERPT
      ? `${body.slice(0, BODY_EXCERPT)}… (${body.length} characters)`
      : body || '(empty body)';
  return `${exchange.response.status} ${type} ${shown}`;
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
  // Found by the mutation harness: judged on every answer, not only in the probes that made them.
  problemInstance,
  corsAllowOrigin,
  distinctErrors,
  // Validators agree with what they validate (decision 0123).
  lastModifiedFromBody,
  dataSetDateKept,
  notModifiedEtag,
  notModifiedWhenMatched,
  // Method and media type lists against the path's operations (decision 0121).
  allowMatchesPath,
  acceptPatchMatches,
  resourceIdentity,
  cacheControlPolicy,
  headDeclaredHeaders,
  // The same state answers the same body, everywhere in the run (decision 0124).
  sameValidatorSameBody,
  fixedCatalogAnswers,
  pageLinksEverywhere,
];
