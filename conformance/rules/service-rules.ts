import { C, I, judged, noCheck, outside, type Rule } from './rule.js';

const SHARED = C('HTTP semantics shared by every path');
const HEADERS = C('Precise rules / Headers');
const ADDRESSES = C('Addresses and versions');

/** Idempotency keys, served documents and open routes, request id, rate limits, CORS, design. */
export const serviceRules: Rule[] = [
  judged(
    'idem.replay',
    'the same Idempotency-Key with the same body within 24 hours replays the first answer (status, body, Location)',
    SHARED,
    ['idempotency_key_replay'],
    ['idempotency-key-ignored'],
  ),
  judged(
    'idem.other-body-422',
    'the same Idempotency-Key with another body: 422',
    SHARED,
    ['idempotency_key_replay'],
    ['idempotency-replay-ignores-body'],
  ),
  judged(
    'idem.in-flight-409',
    'the same Idempotency-Key while the first is still being handled: 409',
    SHARED,
    ['idempotency_key_in_flight'],
    ['in-flight-key-ignored'],
    "judged as far as the outside can: four requests sent at once with one key and body are carried out once, each answered that 2xx or 409; whether one arrives while the first is still handled is the target's timing (a fast target replays them all), so a run never demands the 409 itself",
  ),
  judged(
    'idem.scope',
    'keys are scoped to (subject, method, path); every answer to a request that passed validation is remembered',
    HEADERS,
    ['idempotency_key_scope', 'idempotency_key_validation', 'idempotency_key_refusals'],
    ['idempotency-key-global', 'idempotency-remembers-400', 'idempotency-forgets-conflicts'],
    'judged: the same key on another path, or from the other credential, is a new request; where x-apikit-http declares idempotencyAfterValidation, a 400 is not remembered and a conflict (x-apikit-unique) is, replayed after it is gone; not judged: the method (only POSTs take a key here), and a remembered 422 apart from the 409',
  ),
  judged(
    'idem.key-length',
    'keys are at most 255 characters (longer: 400, pointer #/header/Idempotency-Key)',
    HEADERS,
    ['negative_data_rejection'],
    ['long-idempotency-key-ignored'],
  ),
  outside(
    'idem.24-hours',
    'a key is remembered for 24 hours',
    SHARED,
    'a run cannot wait 24 hours',
  ),
  judged(
    'open.routes',
    'open to all: /auth/**, GET /healthz, GET /openapi.json, GET /openapi.yaml, GET /docs',
    ADDRESSES,
    ['open_routes'],
    ['served-route-needs-token'],
    "the routes outside the spec's paths are declared in x-apikit-service.servedRoutes, relative to the server's root; /auth/** (security: []) is called without a token by every run",
  ),
  judged(
    'open.options',
    'every OPTIONS is open (a CORS preflight carries no token)',
    C('Precise rules / Requests'),
    ['allow_header_conformance'],
    ['options-needs-token'],
  ),
  judged(
    'open.openapi-served',
    'GET /openapi.json and /openapi.yaml serve the contract as written in spec/',
    ADDRESSES,
    ['served_documents'],
    ['served-contract-stale'],
    'compared in outline with the spec the run was given: version, title, paths, methods, operationIds, statuses, schema names, root extensions',
  ),
  judged(
    'request-id.present',
    'a request id (X-Request-Id) is on every response and in the problem body as requestId',
    C('Errors: RFC 9457 problem details'),
    ['response_headers_conformance', 'response_schema_conformance'],
    ['request-id-missing'],
  ),
  judged(
    'request-id.echo',
    'X-Request-Id is echoed when the client sends one, generated otherwise',
    C('Errors: RFC 9457 problem details'),
    ['request_id_echo'],
    ['request-id-not-echoed'],
  ),
  judged(
    'rate-limit.headers',
    'RateLimit-Policy and RateLimit on every response under /api while a limit is on, OPTIONS aside',
    HEADERS,
    ['rate_limit_headers'],
    ['rate-limit-malformed'],
    'the syntax of draft-ietf-httpapi-ratelimit-headers on every answer carrying either; their absence only once an earlier answer of the run carried them (a run cannot tell that a limit is on otherwise)',
  ),
  judged(
    'rate-limit.429',
    'rate limit exceeded: 429 with Retry-After (integer seconds) and the RateLimit headers',
    C('Errors: RFC 9457 problem details'),
    ['rate_limit_exceeded'],
    ['login-429-without-retry-after'],
    "only with --provoke-rate-limits, as the run's last check, on the login budget (per address, apart from the tokens' budgets, so the run keeps working); the 1,000-a-minute budget of a token is never spent",
  ),
  judged(
    'cors.headers',
    'CORS allows Authorization, Content-Type, If-Match, If-None-Match, If-Modified-Since, Idempotency-Key, X-Request-Id; exposes ETag, Last-Modified, Location, Link, Retry-After, RateLimit, RateLimit-Policy, X-Request-Id',
    SHARED,
    ['cors_headers'],
    ['cors-exposes-no-etag'],
    'the lists are x-apikit-service.cors; a target that does not allow the probe origin (origins configured) is skipped',
  ),
  judged(
    'location.path-absolute',
    'Location, Link and instance use the path-absolute form under /api/v1',
    HEADERS,
    ['response_headers_conformance', 'location_resolves'],
    ['location-absolute-uri'],
  ),
  outside(
    'design.path-conventions',
    'nouns, plurals, lower-case with hyphens, no file extensions, nest at most two levels, actions as POST on a verb',
    I('Path conventions'),
    "a rule of the spec's design, not of a server's answers (the spec is linted)",
  ),
  outside(
    'design.info-version',
    'the interface description carries a version field with a three-part number (1.0.0)',
    I('Versioning'),
    "a property of the spec document, not of a server's answers",
  ),
];
