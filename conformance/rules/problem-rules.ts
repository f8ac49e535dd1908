import { C, clause, judged, split, type Rule } from './rule.js';

const REQUESTS = C('Precise rules / Requests');

/** The problem details every error answer is (RFC 9457): their fields, titles and caching. */
export const problemRules: Rule[] = [
  split(
    'http.problem.rfc9457',
    'every 4xx and 5xx is problem+json {type, title, status, detail, instance}; status equals the HTTP status (the media type: http.media.response-json#errors)',
    C('Errors: RFC 9457 problem details'),
    [
      clause('type', 'a problem has type', ['problem_json'], ['problem-without-type']),
      clause('title', 'a problem has title', ['problem_json'], ['problem-without-title']),
      clause(
        'status',
        "a problem's status equals the HTTP status",
        ['problem_json'],
        ['problem-status-mismatch'],
      ),
      clause(
        'detail',
        'a problem has detail',
        ['response_schema_conformance'],
        ['problem-without-detail'],
      ),
      clause(
        'instance',
        'a problem has instance',
        ['response_schema_conformance'],
        ['problem-without-instance'],
      ),
    ],
  ),
  split(
    'http.problem.instance',
    'instance is the request path without the query, under /api/v1',
    REQUESTS,
    [
      clause(
        'under-prefix',
        'instance is the path under /api/v1',
        ['problem_json'],
        ['problem-instance-unprefixed'],
      ),
      clause(
        'no-query',
        'instance carries no query (a pattern of the Problem schema)',
        ['response_schema_conformance'],
        ['problem-instance-with-query'],
      ),
      clause(
        'request-path',
        "instance names the request's own path, not another resource's (found by the mutation harness)",
        ['problem_instance'],
        ['problem-instance-other-path'],
      ),
    ],
  ),
  split(
    'http.problem.type-title',
    'type is an absolute URI with one fixed title per type, documented in the spec',
    REQUESTS,
    [
      clause(
        'absolute-uri',
        'type is an absolute URI, one the spec documents',
        ['response_schema_conformance'],
        ['problem-type-relative'],
      ),
      clause(
        'one-title',
        'each type has its one documented title',
        ['problem_type_title'],
        ['title-is-reason-phrase'],
      ),
    ],
  ),
  judged(
    'http.problem.no-store',
    'problem responses carry Cache-Control: no-store',
    REQUESTS,
    ['response_headers_conformance'],
    ['problem-cacheable'],
  ),
];
