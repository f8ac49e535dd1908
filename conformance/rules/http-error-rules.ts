import { problemRules } from './problem-rules.js';
import { C, I, clause, judged, outside, split, type Rule } from './rule.js';

const SHARED = C('HTTP semantics shared by every path');
const REQUESTS = C('Precise rules / Requests');
const MEDIA = C('Media types and negotiation');

/** Negotiation, sizes, validation errors, problem details, documented answers, server errors. */
export const httpErrorRules: Rule[] = [
  split(
    'http.accept.406',
    'an Accept header that admits neither JSON type (nor */*, application/*): 406',
    MEDIA,
    [
      clause(
        'non-json-406',
        'Accept admitting no JSON type (text/html) is 406',
        ['not_acceptable'],
        ['accept-ignored'],
      ),
      clause(
        'wildcards-accepted',
        'Accept: */* and application/* admit JSON: not 406',
        ['accept_wildcards'],
        ['accept-wildcards-refused'],
      ),
    ],
  ),
  judged(
    'http.413',
    'bodies over 100 KiB: 413',
    SHARED,
    ['payload_too_large'],
    ['oversized-body-parsed'],
  ),
  split(
    'http.400.validation',
    'invalid JSON, schema violation of body, query or path: 400',
    C('Errors: RFC 9457 problem details'),
    [
      clause(
        'malformed-json',
        'a body that is not well-formed JSON is 400',
        ['negative_data_rejection'],
        ['malformed-json-422'],
      ),
      clause(
        'body-schema',
        'a well-formed body that breaks its schema is 400 (not 422)',
        ['negative_data_rejection'],
        ['body-violation-422'],
      ),
      clause(
        'query',
        'a query value that breaks its schema (negative, not a number) is 400, not its default',
        ['negative_data_rejection'],
        ['invalid-paging-defaulted'],
      ),
      clause(
        'path',
        'a path value that breaks its schema (not an integer) is 400, not 404',
        ['negative_data_rejection'],
        ['non-numeric-id-404'],
      ),
      clause(
        'never-accepted',
        'a body breaking several constraints at once, or more than errors can list, is refused too: never 2xx (decision 0126)',
        ['validation_errors', 'bounded_errors'],
        ['several-violations-accepted', 'over-bound-accepted'],
      ),
    ],
  ),
  judged(
    'http.400.unknown-query',
    'unknown query parameters are 400 (#/query/NAME)',
    REQUESTS,
    ['negative_data_rejection'],
    ['unknown-query-ignored'],
  ),
  split(
    'http.400.plain-decimal',
    'query integers are plain decimal, no sign or leading zero (1e3, 20.0, +5, 05 are 400)',
    REQUESTS,
    [
      clause(
        'leading-zero',
        'a leading zero (05) is 400',
        ['negative_data_rejection'],
        ['lenient-query-integers'],
      ),
      clause(
        'sign',
        'a sign (+5) is 400',
        ['negative_data_rejection'],
        ['query-integer-sign-accepted'],
      ),
      clause(
        'exponent',
        'an exponent (1e3) is 400',
        ['negative_data_rejection'],
        ['query-integer-exponent-accepted'],
      ),
      clause(
        'fraction',
        'a fraction, even of zero (20.0), is 400',
        ['negative_data_rejection'],
        ['query-integer-fraction-accepted'],
      ),
    ],
  ),
  split(
    'http.400.every-violation',
    'validation failures add errors[], one entry per violated constraint (every violation at once)',
    C('Errors: RFC 9457 problem details'),
    [
      clause(
        'every-violation',
        'every violated constraint has its entry, all at once',
        ['validation_errors'],
        ['first-violation-only'],
      ),
      clause(
        'once-each',
        'no constraint is listed twice (found by the mutation harness)',
        ['distinct_errors'],
        ['errors-entry-twice'],
      ),
      clause(
        'each-case-listed',
        'the 400 to any request breaking one constraint lists it: no entry is dropped, the last one neither (decision 0126)',
        ['negative_data_rejection'],
        ['errors-off-by-one'],
      ),
      clause(
        'only-broken',
        'a request breaking one constraint gets entries for it alone: none names a place it did not break (decision 0126)',
        ['negative_data_rejection'],
        ['stray-error-entry'],
      ),
    ],
  ),
  split(
    'http.400.pointers',
    'error pointers in fragment form (#/name, #/items/0/quantity, #/query/size, #/path/id)',
    REQUESTS,
    [
      clause(
        'body',
        'a pointer into the body is a URI fragment (#/name, #/items/0/quantity)',
        ['validation_errors'],
        ['body-pointers-unfragmented'],
      ),
      clause(
        'query-path',
        'a pointer to a parameter names its location (#/query/size, #/path/id)',
        ['validation_errors'],
        ['pointers-without-location'],
      ),
      clause(
        'broken-member',
        'the entry points at the member broken, not its parent: #/items/0/quantity, not #/items/0 (decision 0126)',
        ['negative_data_rejection'],
        ['pointer-at-parent'],
      ),
    ],
  ),
  split(
    'http.400.bounded-errors',
    'errors lists at most the documented number of violations (100, the first ones) and says how many more were left out; the answer is no larger than its request',
    C('Errors: RFC 9457 problem details'),
    [
      clause(
        'max-items',
        'errors lists at most the documented number of entries (100)',
        ['bounded_errors'],
        ['errors-unbounded'],
      ),
      clause(
        'first-ones',
        'the entries listed are the first violations found',
        ['bounded_errors'],
        ['errors-last-ones'],
      ),
      clause(
        'omitted-count',
        'the violations left out are counted (errorsOmitted)',
        ['bounded_errors'],
        ['errors-omitted-dropped'],
      ),
      clause(
        'answer-size',
        'the answer is no larger than its request',
        ['bounded_errors'],
        ['problem-echoes-request'],
      ),
    ],
  ),
  judged(
    'http.400.bounded-entry-text',
    "an entry's pointer and detail are bounded (200 characters): a huge property name is not echoed whole",
    C('Errors: RFC 9457 problem details'),
    ['bounded_errors', 'response_schema_conformance'],
    ['long-pointer-echoed'],
  ),
  judged(
    'http.431.header-limit',
    'a request line and headers over the limit (16 KiB) are answered 431 problem+json on any path (RFC 6585), a service-wide answer no operation repeats',
    C('Errors: RFC 9457 problem details'),
    ['header_limit'],
    ['header-overflow-400'],
  ),
  ...problemRules,
  judged(
    'http.500.never',
    'unexpected failure: never for any input a client can send',
    C('Errors: RFC 9457 problem details'),
    ['not_a_server_error', 'fuzz_no_server_error'],
    ['deep-page-crashes'],
  ),
  split(
    'http.responses.documented',
    'every answer is one the spec documents (status, media type, body, headers)',
    C('introduction'),
    [
      clause(
        'status',
        'its status is one documented for the operation',
        ['status_code_conformance', 'fuzz_response_conformance'],
        ['delete-answers-200'],
      ),
      clause(
        'media-type',
        'its media type is one documented for that status',
        ['content_type_conformance'],
        ['json-as-hal'],
      ),
      clause(
        'body',
        'its body validates against the schema documented for that status',
        ['response_schema_conformance', 'fuzz_response_conformance'],
        ['order-id-as-string'],
      ),
      clause(
        'headers',
        'its headers are those documented, each matching its schema',
        ['response_headers_conformance'],
        ['etag-unquoted'],
      ),
    ],
  ),
  judged(
    'http.write.read-back',
    'after an accepted write a GET reads back what it set',
    I('Method semantics'),
    ['fuzz_read_back'],
    ['read-back-drops-age'],
  ),
  judged(
    'http.headers.no-injection',
    'no value a client sends splits a response header; Location and Link stay well-formed',
    SHARED,
    ['fuzz_header_injection'],
    ['header-injection-echoed'],
  ),
  outside(
    'http.503',
    'the store cannot be written or the server is draining: 503 with Retry-After',
    C('Errors: RFC 9457 problem details'),
    'needs a full disk or a shutdown, which a client cannot provoke',
  ),
  outside(
    'http.502-504',
    '502 invalid answer from an upstream, 504 upstream did not answer in time',
    I('Errors'),
    'the service has no upstream a client can break',
  ),
];
