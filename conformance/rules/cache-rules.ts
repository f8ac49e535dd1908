import { C, I, clause, judged, outsideClause, split, type Rule } from './rule.js';

const SHARED = C('HTTP semantics shared by every path');
const HEADERS = C('Precise rules / Headers');

/** Conditional requests on present and absent resources (validators, caching: cache-validator-rules.ts). */
export const cacheRules: Rule[] = [
  split(
    'cond.if-none-match-304',
    'If-None-Match with the current ETag: 304 with no body when unchanged',
    I('Conditional and cached reads'),
    [
      clause(
        'current-304',
        'If-None-Match with the current ETag answers 304',
        ['etag_conditional'],
        ['if-none-match-ignored'],
      ),
      clause(
        'other-200',
        'If-None-Match with another tag answers the full 200',
        ['etag_conditional', 'not_modified_etag'],
        ['any-if-none-match-304', 'unmatched-if-none-match-304'],
      ),
      outsideClause(
        'no-body',
        'the 304 has no body',
        'HTTP framing gives a 304 no body (RFC 9112 6.3): a client reads none whatever the server writes, and Node servers drop it',
      ),
    ],
  ),
  split(
    'cond.if-modified-since-304',
    'If-Modified-Since: 304 with no body when unchanged',
    I('Conditional and cached reads'),
    [
      clause(
        'unchanged-304',
        'If-Modified-Since at the Last-Modified date answers 304',
        ['last_modified_conditional'],
        ['if-modified-since-ignored'],
      ),
      clause(
        'changed-200',
        'If-Modified-Since before the last change answers the full 200',
        ['last_modified_conditional'],
        ['any-if-modified-since-304'],
      ),
      clause(
        'unconditional-200',
        'a GET or HEAD with neither If-None-Match nor If-Modified-Since (nor a valid date in it) is never 304',
        ['not_modified_when_matched'],
        ['unconditional-304'],
      ),
      outsideClause(
        'no-body',
        'the 304 has no body',
        'HTTP framing gives a 304 no body (RFC 9112 6.3): a client reads none whatever the server writes, and Node servers drop it',
      ),
    ],
  ),
  judged(
    'cond.inm-wins',
    'If-None-Match wins over If-Modified-Since (compared to the second)',
    HEADERS,
    ['if_none_match_precedence'],
    ['if-modified-since-overrules'],
  ),
  split(
    'cond.304-headers',
    'a 304 carries ETag, Cache-Control, Vary, X-Request-Id and the CORS headers, and no body',
    HEADERS,
    [
      clause(
        'etag',
        'a 304 carries ETag',
        ['etag_conditional', 'response_headers_conformance'],
        ['not-modified-without-etag'],
      ),
      clause(
        'etag-matched',
        "a 304's ETag is the If-None-Match tag that matched (RFC 9110 15.4.5: the validator a 200 would carry)",
        ['not_modified_etag', 'etag_conditional'],
        ['not-modified-other-etag'],
      ),
      clause(
        'cache-control',
        'a 304 carries Cache-Control',
        ['response_headers_conformance'],
        ['not-modified-without-cache-control'],
      ),
      clause(
        'vary',
        'a 304 carries Vary',
        ['response_headers_conformance'],
        ['not-modified-without-vary'],
      ),
      clause(
        'request-id',
        'a 304 carries X-Request-Id',
        ['response_headers_conformance'],
        ['not-modified-without-request-id'],
      ),
      clause(
        'cors',
        'a 304 to a cross-origin GET repeats the CORS headers of its 200',
        ['cross_origin_reads'],
        ['not-modified-without-cors'],
      ),
      outsideClause(
        'no-body',
        'a 304 has no body',
        'HTTP framing gives a 304 no body (RFC 9112 6.3): a client reads none whatever the server writes, and Node servers drop it',
      ),
    ],
  ),
  split(
    'cond.if-match-412',
    'If-Match on PUT, PATCH and DELETE of users and orders: 412 on a mismatch',
    SHARED,
    [
      clause(
        'stale-412',
        'If-Match with a stale tag answers 412',
        ['if_match_precondition'],
        ['if-match-ignored'],
      ),
      clause(
        'refused-unchanged',
        'the write refused with 412 changes nothing',
        ['if_match_precondition'],
        ['if-match-412-after-write'],
      ),
      clause(
        'current-passes',
        'If-Match with the current ETag lets the write through',
        ['if_match_precondition'],
        ['if-match-never-matches'],
      ),
    ],
  ),
  split(
    'cond.unsafe-if-none-match-412',
    'on an unsafe method, If-None-Match that matches (* matches any existing resource) is 412',
    HEADERS,
    [
      clause(
        'matching-412',
        'PUT, PATCH or DELETE with If-None-Match: * or the current ETag of an existing resource is 412',
        ['if_none_match_write'],
        ['write-ignores-if-none-match'],
      ),
      clause(
        'refused-unchanged',
        'the write refused with 412 changes nothing',
        ['if_none_match_write'],
        ['if-none-match-412-after-write'],
      ),
    ],
  ),
  split(
    'cond.absent.put-if-match-412',
    'If-Match on PUT to an absent id is 412 (no creation)',
    HEADERS,
    [
      clause(
        'status-412',
        'PUT with If-Match at an absent id is 412',
        ['put_if_match_absent'],
        ['put-if-match-creates'],
      ),
      clause(
        'nothing-created',
        'the PUT refused with 412 creates nothing',
        ['put_if_match_absent'],
        ['put-if-match-412-creates'],
      ),
    ],
  ),
  split(
    'cond.absent.patch-delete-404',
    'PATCH and DELETE of an absent resource are 404 whatever the preconditions',
    HEADERS,
    [
      clause(
        'patch',
        'PATCH of an absent resource with If-Match is 404',
        ['preconditions_after_refusal'],
        ['absent-patch-if-match-412'],
      ),
      clause(
        'delete',
        'DELETE of an absent resource with If-Match is 404',
        ['preconditions_after_refusal'],
        ['absent-delete-if-match-412'],
      ),
    ],
  ),
];
