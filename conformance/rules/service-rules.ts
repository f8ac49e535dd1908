import { idempotencyRules } from './idempotency-rules.js';
import { C, I, clause, judged, outside, outsideClause, split, type Rule } from './rule.js';

const SHARED = C('HTTP semantics shared by every path');
const HEADERS = C('Precise rules / Headers');
const ADDRESSES = C('Addresses and versions');

/** Idempotency keys, served documents and open routes, request id, rate limits, CORS, design. */
export const serviceRules: Rule[] = [
  ...idempotencyRules,
  split(
    'open.routes',
    "open to all: /auth/**, GET /healthz, GET /openapi.json, GET /openapi.yaml, GET /docs (the routes outside the spec's paths declared in x-apikit-service.servedRoutes, relative to the server's root)",
    ADDRESSES,
    [
      clause(
        'healthz',
        'GET /healthz needs no token',
        ['open_routes'],
        ['served-route-needs-token'],
      ),
      clause(
        'openapi-json',
        'GET /openapi.json needs no token',
        ['open_routes'],
        ['openapi-json-needs-token'],
      ),
      clause(
        'openapi-yaml',
        'GET /openapi.yaml needs no token',
        ['open_routes'],
        ['openapi-yaml-needs-token'],
      ),
      clause('docs', 'GET /docs needs no token', ['open_routes'], ['docs-needs-token']),
      clause(
        'auth',
        '/auth/** needs no token (security: []): a refresh without an access token renews',
        ['refresh_rotation'],
        ['refresh-needs-token'],
      ),
    ],
  ),
  judged(
    'open.options',
    'every OPTIONS is open (a CORS preflight carries no token)',
    C('Precise rules / Requests'),
    ['allow_header_conformance'],
    ['options-needs-token'],
  ),
  split(
    'open.openapi-served',
    'GET /openapi.json and /openapi.yaml serve the contract as written in spec/ (compared in outline with the spec the run was given: version, title, paths, methods, operationIds, statuses, schema names, root extensions)',
    ADDRESSES,
    [
      clause(
        'json',
        'GET /openapi.json serves the contract',
        ['served_documents'],
        ['served-contract-stale'],
      ),
      clause(
        'yaml',
        'GET /openapi.yaml serves the contract',
        ['served_documents'],
        ['served-yaml-stale'],
      ),
    ],
  ),
  split(
    'request-id.present',
    'a request id (X-Request-Id) is on every response and in the problem body as requestId',
    C('Errors: RFC 9457 problem details'),
    [
      clause(
        'header',
        'X-Request-Id is on every response',
        ['response_headers_conformance'],
        ['request-id-missing'],
      ),
      clause(
        'problem-body',
        'a problem body carries requestId',
        ['response_schema_conformance'],
        ['problem-without-request-id'],
      ),
      clause(
        'same-value',
        "the problem body's requestId is the answer's X-Request-Id (x-apikit-service.problemRequestId)",
        ['problem_request_id'],
        ['problem-request-id-differs'],
      ),
    ],
  ),
  split(
    'request-id.echo',
    'X-Request-Id is echoed when the client sends one, generated otherwise',
    C('Errors: RFC 9457 problem details'),
    [
      clause(
        'echoed',
        "the client's X-Request-Id comes back unchanged",
        ['request_id_echo'],
        ['request-id-not-echoed'],
      ),
      clause(
        'generated',
        'without one sent, each answer gets an id of its own',
        ['request_id_echo'],
        ['request-id-constant'],
      ),
    ],
  ),
  split(
    'rate-limit.headers',
    'RateLimit-Policy and RateLimit on every response under /api while a limit is on, OPTIONS aside (draft-ietf-httpapi-ratelimit-headers)',
    HEADERS,
    [
      clause(
        'ratelimit-syntax',
        'RateLimit is a structured list of named limits with an integer remainder r',
        ['rate_limit_headers'],
        ['rate-limit-malformed'],
      ),
      clause(
        'policy-syntax',
        'RateLimit-Policy is a structured list of named policies with an integer quota q',
        ['rate_limit_headers'],
        ['rate-limit-policy-without-quota'],
      ),
      clause(
        'every-answer',
        'every answer carries them while a limit is on, errors included (judged once an earlier answer of the run carried them: a run cannot tell that a limit is on otherwise)',
        ['rate_limit_headers'],
        ['rate-limit-headers-missing-on-errors'],
      ),
    ],
  ),
  split(
    'rate-limit.429',
    "rate limit exceeded: 429 with Retry-After (integer seconds) and the RateLimit headers (only with --provoke-rate-limits, as the run's last check, on the login budget, per address and apart from the tokens' budgets, so the run keeps working; the 1,000-a-minute budget of a token is never spent)",
    C('Errors: RFC 9457 problem details'),
    [
      clause(
        'retry-after',
        'the 429 carries Retry-After',
        ['rate_limit_exceeded'],
        ['login-429-without-retry-after'],
      ),
      clause(
        'retry-after-seconds',
        'Retry-After is integer seconds, not an HTTP date',
        ['rate_limit_exceeded'],
        ['login-429-retry-after-date'],
      ),
      clause(
        'ratelimit-headers',
        'the 429 carries RateLimit and RateLimit-Policy',
        ['rate_limit_exceeded'],
        ['login-429-without-rate-limit'],
      ),
      clause(
        'any-429-problem',
        'a 429 met on any route, which the runner waits out and retries, is a problem like any other (application/problem+json; judged by the response checks, 0129)',
        ['content_type_conformance'],
        ['retried-429-plain-text'],
      ),
    ],
  ),
  split(
    'cors.headers',
    'CORS allows Authorization, Content-Type, If-Match, If-None-Match, If-Modified-Since, Idempotency-Key, X-Request-Id; exposes ETag, Last-Modified, Location, Link, Retry-After, RateLimit, RateLimit-Policy, X-Request-Id (the lists are x-apikit-service.cors; a target that does not allow the probe origin, its origins configured, is skipped)',
    SHARED,
    [
      clause(
        'allow',
        'a preflight allows each declared request header',
        ['cors_headers'],
        ['cors-allows-no-idempotency-key'],
      ),
      clause(
        'expose',
        'a cross-origin answer exposes each declared response header',
        ['cors_headers'],
        ['cors-exposes-no-etag'],
      ),
      clause(
        'allow-methods',
        "a preflight's Access-Control-Allow-Methods lists the path's methods, the same list as Allow (x-apikit-service.cors.allowMethods)",
        ['allow_matches_path'],
        ['preflight-allow-methods-echoed'],
      ),
      clause(
        'allow-origin',
        'an answer that allows a request with Origin names * or that origin in Access-Control-Allow-Origin (Fetch: any other value refuses the read)',
        ['cors_allow_origin'],
        ['preflight-allows-other-origin'],
      ),
    ],
  ),
  split(
    'location.path-absolute',
    'Location, Link and instance use the path-absolute form under /api/v1',
    HEADERS,
    [
      clause(
        'location',
        'Location is path-absolute under /api/v1 (the pattern of its header in the spec)',
        ['response_headers_conformance', 'location_resolves'],
        ['location-absolute-uri'],
      ),
      clause(
        'link',
        'every Link target is path-absolute under /api/v1 (the pattern of the Link header in the spec)',
        ['response_headers_conformance'],
        ['link-absolute-uri'],
      ),
      clause(
        'instance',
        "a problem's instance is path-absolute (the pattern of Problem.instance in the spec)",
        ['response_schema_conformance'],
        ['problem-instance-absolute'],
      ),
    ],
  ),
  outside(
    'design.path-conventions',
    'nouns, plurals, lower-case with hyphens, no file extensions, nest at most two levels, actions as POST on a verb',
    I('Path conventions'),
    "a rule of the spec's design, not of a server's answers (the spec is linted)",
  ),
  split(
    'design.info-version',
    'the interface description carries a version field with a three-part number (1.0.0)',
    I('Versioning'),
    [
      clause(
        'served',
        'GET /openapi.json serves the version of the description given (a client reads info.version there)',
        ['served_documents'],
        ['served-version-two-part'],
      ),
      outsideClause(
        'three-part',
        "the description's own info.version is a three-part number",
        'a property of the description the run is given, not of a target: checked where the spec is (npm run lint:spec); a target is held to serving that version',
      ),
    ],
  ),
];
