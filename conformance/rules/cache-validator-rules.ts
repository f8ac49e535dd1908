import { C, I, clause, judged, split, type Rule } from './rule.js';

const SHARED = C('HTTP semantics shared by every path');
const HEADERS = C('Precise rules / Headers');

/** Validators per method and kind of resource, Last-Modified, Cache-Control, Vary, invalidation. */
export const cacheValidatorRules: Rule[] = [
  split(
    'cond.validators.get-head-post-patch',
    'GET, HEAD, POST 201 and PATCH 200 carry ETag and Last-Modified',
    HEADERS,
    [
      clause(
        'get',
        'a GET 200 carries ETag (Last-Modified: cond.last-modified.updated-at)',
        ['response_headers_conformance'],
        ['etag-missing'],
      ),
      clause(
        'head',
        'a HEAD carries the validators of its GET',
        ['head_matches_get'],
        ['head-without-validators'],
      ),
      clause(
        'post-201',
        'a POST 201 carries ETag and Last-Modified',
        ['response_headers_conformance'],
        ['created-without-etag'],
      ),
      clause(
        'patch-200',
        'a PATCH 200 carries ETag and Last-Modified',
        ['response_headers_conformance'],
        ['patched-without-last-modified'],
      ),
    ],
  ),
  split(
    'cond.validators.put-none',
    'PUT responses do not carry ETag or Last-Modified (RFC 9110 9.3.4)',
    HEADERS,
    [
      // Judged as RFC 9110 9.3.4 puts it (no validator when the stored representation is not
      // the content sent), which covers every PUT of this API: its reads add ids and timestamps.
      clause(
        'no-etag',
        'a PUT answer carries no ETag (the stored representation is not the content sent)',
        ['put_validators'],
        ['put-answers-validators'],
      ),
      clause(
        'no-last-modified',
        'a PUT answer carries no Last-Modified (likewise)',
        ['put_validators'],
        ['put-answers-last-modified'],
      ),
    ],
  ),
  split(
    'cond.etag.strong-weak',
    'single resources carry a strong ETag; collections and pages a weak ETag',
    SHARED,
    [
      clause(
        'single-strong',
        'single resources carry a strong ETag',
        ['response_headers_conformance'],
        ['weak-etag-on-user'],
      ),
      clause(
        'lists-weak',
        'collections and pages carry a weak ETag',
        ['response_headers_conformance'],
        ['strong-etag-on-list'],
      ),
      clause(
        'same-tag-same-body',
        'a tag names one representation: two 200s to the same GET (URL, Accept, credential, Vary) with the same strong tag are byte-identical, with the same weak tag the same JSON',
        ['same_validator_same_body'],
        ['same-etag-other-body'],
      ),
    ],
  ),
  split(
    'cond.last-modified.updated-at',
    "single resources carry Last-Modified from updatedAt; order items take their order's updatedAt",
    HEADERS,
    [
      clause(
        'present',
        'a single resource carries Last-Modified',
        ['response_headers_conformance', 'last_modified_conditional'],
        ['last-modified-missing'],
      ),
      clause(
        'from-updated-at',
        "Last-Modified is the body's updatedAt to the second (x-apikit-http lastModifiedProperty), never older than an embedded part's",
        ['last_modified_from_body'],
        ['last-modified-hour-early'],
      ),
      clause(
        'order-item',
        "an order item's Last-Modified is its order's updatedAt (an item's body has no date of its own; x-apikit-items datedByParent)",
        ['embedded_items'],
        ['order-item-misdated'],
      ),
    ],
  ),
  split(
    'cond.last-modified.catalogs',
    'the fixed catalogs (GET /categories, GET /categories/{id}, GET /roles), lists included, carry Last-Modified',
    HEADERS,
    [
      clause(
        'lists',
        'the catalog lists (GET /categories, GET /roles) carry Last-Modified',
        ['response_headers_conformance'],
        ['catalog-lists-without-last-modified'],
      ),
      clause(
        'entry',
        'one entry of a catalog (GET /categories/{id}) carries Last-Modified',
        ['response_headers_conformance'],
        ['category-without-last-modified'],
      ),
    ],
  ),
  judged(
    'cond.last-modified.catalog-date',
    "the catalogs' Last-Modified is the time the data set was created (first start, or the last reset)",
    HEADERS,
    ['data_set_dated', 'data_set_date_kept'],
    ['category-list-misdated', 'category-entry-misdated'],
    'judged where x-apikit-http declares dataSetDated: the catalogs, lists included, share one date, in every answer of a run (data_set_date_kept); that it moves with a reset is not (the reset is destructive, and a run reads the date once)',
  ),
  judged(
    'cond.last-modified.other-lists',
    'other lists and pages carry a weak ETag and no Last-Modified',
    HEADERS,
    ['undated_lists', 'response_headers_conformance'],
    ['lists-with-last-modified'],
    'judged where x-apikit-http declares undatedLists (OpenAPI cannot say a header must be absent)',
  ),
  judged(
    'cond.last-modified.expanded-order',
    'an expanded order has its own ETag; its Last-Modified is the newest of the order, its items and its user',
    HEADERS,
    ['expanded_validators'],
    ['expanded-order-plain-etag'],
    'judged: its own strong ETag, and a Last-Modified no older than the plain order; not compared: that it is the newest of its items and its user (HTTP-dates have one-second resolution, so a break shows only when the user changed in a later second than the order)',
  ),
  split(
    'cache.cache-control',
    'Cache-Control: private, no-cache on resources, private, max-age=3600 on the fixed catalogs, no-store under /auth',
    SHARED,
    [
      clause(
        'present',
        'a GET answer carries Cache-Control',
        ['cache_control_present'],
        ['cache-control-dropped'],
      ),
      clause(
        'resources',
        'resources carry private, no-cache',
        ['response_headers_conformance'],
        ['resource-cache-public'],
      ),
      clause(
        'catalogs',
        'the fixed catalogs carry private, max-age=3600',
        ['response_headers_conformance'],
        ['catalog-no-cache'],
      ),
      clause(
        'auth',
        'answers under /auth carry no-store',
        ['response_headers_conformance'],
        ['auth-cacheable'],
      ),
      clause(
        'writes',
        "a write's 2xx carries the resource policy, private, no-cache, with no directive contradicting it (x-apikit-http.cacheControl.writes)",
        ['cache_control_policy'],
        ['write-answer-cache-public'],
      ),
    ],
  ),
  split('cache.vary', 'Vary: Authorization, Accept (and Origin when an origin is echoed)', SHARED, [
    clause(
      'present',
      'a GET answer carries Vary',
      ['response_headers_conformance'],
      ['vary-missing'],
    ),
    clause(
      'authorization',
      'Vary names Authorization (a pattern of the Vary header in the spec)',
      ['response_headers_conformance'],
      ['vary-without-authorization'],
    ),
    clause(
      'accept',
      'Vary names Accept (a pattern of the Vary header in the spec)',
      ['response_headers_conformance'],
      ['vary-without-accept'],
    ),
    clause(
      'origin',
      'Vary names Origin when Access-Control-Allow-Origin echoes the origin',
      ['cross_origin_reads'],
      ['origin-echoed-without-vary'],
    ),
  ]),
  judged(
    'cache.delete-invalidates',
    'after a DELETE no cached representation is served (a repeated GET is 404)',
    I('Errors'),
    ['use_after_free'],
    ['stale-order-after-delete'],
  ),
];
