import { C, I, judged, noCheck, type Rule } from './rule.js';

const SHARED = C('HTTP semantics shared by every path');
const HEADERS = C('Precise rules / Headers');

/** Conditional requests on present and absent resources, validators per method, caching. */
export const cacheRules: Rule[] = [
  judged(
    'cond.if-none-match-304',
    'If-None-Match with the current ETag: 304 with no body when unchanged',
    I('Conditional and cached reads'),
    ['etag_conditional'],
    ['if-none-match-ignored'],
  ),
  judged(
    'cond.if-modified-since-304',
    'If-Modified-Since: 304 with no body when unchanged',
    I('Conditional and cached reads'),
    ['last_modified_conditional'],
    ['if-modified-since-ignored'],
  ),
  noCheck(
    'cond.inm-wins',
    'If-None-Match wins over If-Modified-Since (compared to the second)',
    HEADERS,
    'no check sends both',
  ),
  judged(
    'cond.304-headers',
    'a 304 carries ETag, Cache-Control, Vary, X-Request-Id and the CORS headers, and no body',
    HEADERS,
    ['etag_conditional', 'response_headers_conformance'],
    ['not-modified-without-etag'],
  ),
  judged(
    'cond.if-match-412',
    'If-Match on PUT, PATCH and DELETE of users and orders: 412 on a mismatch',
    SHARED,
    ['if_match_precondition'],
    ['if-match-ignored'],
  ),
  noCheck(
    'cond.unsafe-if-none-match-412',
    'on an unsafe method, If-None-Match that matches (* matches any existing resource) is 412',
    HEADERS,
    'no check sends If-None-Match on a write',
  ),
  noCheck(
    'cond.absent.put-if-match-412',
    'If-Match on PUT to an absent id is 412 (no creation)',
    HEADERS,
    'no check sends a conditional PUT to an absent id',
  ),
  judged(
    'cond.absent.patch-delete-404',
    'PATCH and DELETE of an absent resource are 404 whatever the preconditions',
    HEADERS,
    ['preconditions_after_refusal'],
    ['absent-if-match-412'],
  ),
  judged(
    'cond.validators.get-head-post-patch',
    'GET, HEAD, POST 201 and PATCH 200 carry ETag and Last-Modified',
    HEADERS,
    ['response_headers_conformance', 'head_matches_get'],
    ['etag-missing', 'head-without-validators'],
    'the faults break GET and HEAD only; none drops the validators of a POST 201 or a PATCH 200',
  ),
  noCheck(
    'cond.validators.put-none',
    'PUT responses do not carry ETag or Last-Modified (RFC 9110 9.3.4)',
    HEADERS,
    'OpenAPI cannot say a header must be absent, and no check looks',
  ),
  judged(
    'cond.etag.strong-weak',
    'single resources carry a strong ETag; collections and pages a weak ETag',
    SHARED,
    ['response_headers_conformance'],
    ['weak-etag-on-user'],
  ),
  judged(
    'cond.last-modified.updated-at',
    "single resources carry Last-Modified from updatedAt; order items take their order's updatedAt",
    HEADERS,
    ['response_headers_conformance', 'last_modified_conditional'],
    ['last-modified-missing'],
  ),
  judged(
    'cond.last-modified.catalogs',
    'the fixed catalogs (GET /categories, GET /categories/{id}, GET /roles), lists included, carry Last-Modified',
    HEADERS,
    ['response_headers_conformance'],
    ['catalog-lists-without-last-modified'],
  ),
  noCheck(
    'cond.last-modified.catalog-date',
    "the catalogs' Last-Modified is the time the data set was created (first start, or the last reset)",
    HEADERS,
    "nothing compares the catalogs' dates with each other or with a reset",
  ),
  noCheck(
    'cond.last-modified.other-lists',
    'other lists and pages carry a weak ETag and no Last-Modified',
    HEADERS,
    'OpenAPI cannot say a header must be absent, and no check looks',
  ),
  noCheck(
    'cond.last-modified.expanded-order',
    'an expanded order has its own ETag; its Last-Modified is the newest of the order, its items and its user',
    HEADERS,
    'no check compares the validators of an expanded order',
  ),
  judged(
    'cache.cache-control',
    'Cache-Control: private, no-cache on resources, private, max-age=3600 on the fixed catalogs, no-store under /auth',
    SHARED,
    ['cache_control_present', 'response_headers_conformance'],
    ['cache-control-dropped'],
    'cache-control-dropped strips the header on users operations; no fault sends a wrong value on the catalogs or under /auth',
  ),
  judged(
    'cache.vary',
    'Vary: Authorization, Accept (and Origin when an origin is echoed)',
    SHARED,
    ['response_headers_conformance'],
    ['vary-missing'],
    'vary-missing drops the header; its value is not compared',
  ),
  judged(
    'cache.delete-invalidates',
    'after a DELETE no cached representation is served (a repeated GET is 404)',
    I('Errors'),
    ['use_after_free'],
    ['stale-cache-after-delete'],
  ),
];
