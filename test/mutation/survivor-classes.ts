/**
 * The reviewed table of surviving mutations (docs/mutation-testing.md, decision 0115). Each
 * entry matches survivors by operator, operation and target (a header name, `header:param`, a
 * folded JSON path like `errors[].pointer`, a status pair `200->404`, `-` for a whole write;
 * `'*'` or a RegExp match several), optionally by the exchange's request method, its status in
 * the control run and the check that made it, and says why the runner lets them pass:
 * - `allowed`: the contract allows the changed answer; `clause` quotes where.
 * - `blind-spot`: the contract forbids it and no check sees it yet; `note` says what a clause
 *   check would need. Each is to become a clause check with its fault (issue 32, item 1).
 * The first matching entry wins: narrow entries come before broad ones.
 */
export interface SurvivorClass {
  operator: string | RegExp;
  operation: string | RegExp;
  target: string | RegExp;
  /** Only survivors whose exchange (in the control run) had a status it accepts. */
  status?: (status: number) => boolean;
  /** Only survivors whose exchange had this request method. */
  method?: string | RegExp;
  /** Only survivors whose exchange was made by this check (`(setup)`: before the first). */
  check?: string | RegExp;
  verdict: 'allowed' | 'blind-spot';
  /** For `allowed`: the clause of the contract that allows it, quoted, with its source. */
  clause?: string;
  /** For `blind-spot`: what is undetected and what a check would need. */
  note?: string;
}

const HEADER_OPS = /^header-/;
const BODY_OPS = /^(body-|problem-alter$|list-)/;
const isProblemStatus = (s: number) => s >= 400;

/**
 * Checks that send their requests past ctx.call (client.send, the setup): their answers are
 * judged for the check's own property only, never by the response checks.
 */
const UNOBSERVED =
  /^(\(setup\)|operation_implemented|cors_headers|request_id_echo|strict_routing|unrecognized_method|rate_limit_exceeded|version_routing|head_requires_auth|check_order|header_limit|unsupported_method|allow_header_conformance|problem_json|cache_control_present|admin_reset|refresh_rotation)$/;

export const SURVIVOR_CLASSES: readonly SurvivorClass[] = [
  // ---- allowed by the contract, whatever exchange ----
  {
    operator: HEADER_OPS,
    operation: '*',
    target:
      /^(content-security-policy|x-content-type-options|x-frame-options|referrer-policy|cross-origin-resource-policy)(:|$)/,
    verdict: 'allowed',
    clause:
      'Not in the contract: spec/openapi.yaml declares the headers of every answer and none of these; decision 0036 puts them on the reference server as its own hardening ("node-runtime/security-headers.ts records two lists from helmet itself ... for every answer but the /docs page"), not as a statement of the interface.',
  },
  {
    operator: /^(body-alter|problem-alter)$/,
    operation: '*',
    target: 'detail',
    status: isProblemStatus,
    verdict: 'allowed',
    clause:
      'Problem.detail: "Explanation specific to this occurrence; at most 500 characters, a longer one cut and ending in `…`" (spec/openapi.yaml): free text, no fixed wording (the mutation keeps its length).',
  },
  {
    operator: 'list-reorder',
    operation: '*',
    target: 'errors',
    status: (s) => s === 400,
    verdict: 'allowed',
    clause:
      'Contract page, Errors: "Every 400 adds `errors`, one entry per violated constraint" and "a 400 lists at most 100 entries, the first found in the order of checks": which entries are kept is ordered, the order of the list is not.',
  },
  {
    operator: HEADER_OPS,
    operation: '*',
    target: /^vary(:|$)/,
    status: (s) => s !== 200 && s !== 304,
    verdict: 'allowed',
    clause:
      'spec/openapi.yaml declares `Vary` (components/headers/Vary, "Request headers the representation depends on: `Authorization` and `Accept`") only on the 200 answers of reads, and the contract page on the 304 ("A 304 carries `ETag`, `Cache-Control`, `Vary`, ..."): other answers declare no Vary.',
  },
  {
    operator: HEADER_OPS,
    operation: '*',
    target: /^vary(:|$)/,
    method: /^(POST|PUT|PATCH|DELETE|OPTIONS)$/,
    verdict: 'allowed',
    clause:
      'spec/openapi.yaml declares `Vary` only on the answers of GETs; the contract page\'s "`Vary: Authorization, Accept`" sits in "Caching and conditional requests" of reads. A write\'s answer is not stored by caches (RFC 9111 3).',
  },
  {
    operator: 'write-twice',
    operation: '*',
    target: '-',
    method: /^(PUT|DELETE)$/,
    verdict: 'allowed',
    clause:
      'Interface document, Method semantics: "PUT | no | yes | replace the whole resource" and "DELETE | no | yes | remove" (idempotent: the second identical request leaves the state the first left).',
  },
  {
    operator: 'write-twice',
    operation: '*',
    target: '-',
    method: 'PATCH',
    verdict: 'allowed',
    clause:
      'Interface document, Method semantics: PATCH idempotency "depends on the operation (setting a value is idempotent, increment is not)"; the patches of this API set values (JSON merge patch, RFC 7396), so a repeat leaves the same state.',
  },
  {
    operator: 'write-twice',
    operation: /^(login|logout)$/,
    target: '-',
    verdict: 'allowed',
    clause:
      'Interface document, Authentication: "POST /auth/login exchanges credentials for accessToken and refreshToken", "The service keeps no session": a second login issues a pair nobody uses (no limit on pairs is stated); a second logout of a revoked token changes nothing.',
  },
  {
    operator: 'write-twice',
    operation: '*',
    target: '-',
    method: 'POST',
    check: /^idempotency_key/,
    verdict: 'allowed',
    clause:
      'Contract page, Idempotency: "The same key with the same body (compared as parsed JSON) replays the first answer (status, body, `Location`)": the repeat of a keyed request changes nothing.',
  },
  {
    operator: /^(body-alter|problem-alter)$/,
    operation: '*',
    target: 'errors[].detail',
    status: (s) => s === 400,
    verdict: 'allowed',
    clause:
      'Contract page, Errors: "an entry\'s `pointer` and `detail` are at most 200 characters": the detail of an entry is free text (the mutation keeps its length).',
  },
  {
    operator: 'list-reorder',
    operation: '*',
    target: /^(items|.*\.items)$/,
    verdict: 'allowed',
    clause:
      'Contract page, "Lists declare their order as `x-apikit-sort`": the lists of the API do (listUsers, listUserOrders, listUserRoles, listRoles, listCategories); the items embedded in an order (`expand=items`, `x-apikit-items`) declare none, so their order is free.',
  },
  {
    operator: 'header-alter',
    operation: '*',
    target: 'x-request-id',
    check: /^(?!request_id_echo$)/,
    verdict: 'allowed',
    clause:
      'Contract page: "`X-Request-Id` is on every response: echoed when the client sends one, generated otherwise": outside request_id_echo the runner sends none, so any generated value is right (the mutation keeps it non-empty).',
  },
  {
    operator: 'write-twice',
    operation: /^(activateUser|blockUser|unblockUser|cancelOrder)$/,
    target: '-',
    method: 'POST',
    verdict: 'allowed',
    clause:
      'Contract page, x-apikit-states: a transition leads to its target state; the repeat starts from that state and is either refused ("A status change the state machine does not allow", 409 invalid-state-transition, nothing changes) or leaves the state as it is. The client sees the first answer; the contract ties no observable to the number of repeats.',
  },
  {
    operator: 'write-twice',
    operation: 'resetData',
    target: '-',
    verdict: 'allowed',
    clause:
      'Contract page, x-apikit-service `reset`: "restoring the initial data set: what was made since is gone, ids continue past every id assigned before, refresh tokens issued before are refused": a second reset right after the first leaves the same state.',
  },
  {
    operator: 'write-twice',
    operation: 'createUser',
    target: '-',
    method: 'POST',
    verdict: 'allowed',
    clause:
      'Contract page, Errors: 409 duplicate-email "Create, replace or update would give two users the same email" (x-apikit-unique on email): the repeat of a creation is refused and creates nothing.',
  },
  {
    operator: 'write-twice',
    operation: '*',
    target: '-',
    method: 'POST',
    status: (s) => s === 201,
    verdict: 'blind-spot',
    note: 'A creating POST applied twice: a second resource nobody asked for. Visible to a later list or to the id sequence, but only id_allocation and unique_fields look, each at its own creation. A check: after a creation, the collection grew by exactly one (x-apikit-ids, list operation).',
  },

  // ---- blind spots ----
  {
    operator: /^header-param-(drop|alter)$/,
    operation: /^options/,
    target: /^(allow|accept-patch|access-control-allow-methods):/,
    verdict: 'blind-spot',
    note: 'OPTIONS answers: `Allow` ("lists allowed methods", interface document) and `Accept-Patch` ("Media types accepted by `PATCH` on this path", spec) are only checked for presence and shape, not against the path\'s operations and the PATCH requestBody media types. A check: Allow = the methods the spec declares on the path (+ HEAD with GET, OPTIONS); Accept-Patch = the PATCH operation\'s requestBody content types.',
  },

  {
    operator: 'list-truncate',
    operation: '*',
    target: 'errors',
    status: (s) => s === 400,
    verdict: 'blind-spot',
    note: 'Contract page: "Every 400 adds `errors`, one entry per violated constraint" (up to 100): a 400 missing one of several violations passes where the runner sent a request with several known violations (bounded_errors, negative cases). A check: a request with N known violations (N <= 100) gets N entries.',
  },
  {
    operator: /^(body-alter|body-retype)$/,
    operation: '*',
    target: 'errors[].pointer',
    status: (s) => s === 400,
    verdict: 'blind-spot',
    note: 'Contract page: each entry of `errors` has "a JSON Pointer in fragment form" to the violated place. The runner compares pointers with the place it broke only in validation_errors\' own cases; other negative requests (bounded_errors, negative_data_rejection) know what they broke too. A check: every generated negative case expects an entry whose pointer names the broken member.',
  },
  {
    operator: 'header-alter',
    operation: '*',
    target: 'location',
    status: (s) => s === 201,
    verdict: 'blind-spot',
    note: 'Interface document: 201 with "header Location with the path of the new user"; location_resolves follows the Location of its own creation only. A response check: every 201 Location is the GET path of the created resource (its id field, x-apikit-ids `field`, at the end of the path).',
  },
  {
    operator: 'body-alter',
    operation: '*',
    target: 'updatedAt',
    method: /^(GET|HEAD)$/,
    status: (s) => s === 200,
    verdict: 'blind-spot',
    note: 'Rule cond.last-modified.updated-at: "single resources carry Last-Modified from updatedAt"; only the presence of Last-Modified is checked, so an updatedAt that disagrees with it in the same answer passes. A response check: Last-Modified equals updatedAt truncated to the second.',
  },
  {
    operator: /^(list-|body-add$)/,
    operation: /^(listRoles|listCategories)$/,
    target: /^(\(root\)|\[\])$/,
    status: (s) => s === 200,
    verdict: 'blind-spot',
    note: 'x-apikit-roles / x-apikit-relations fixedCatalog: "the catalog answers exactly the first example of its 200 answer"; fixed_catalog compares its own GET only, so a catalog answered with an item more, less, twice or in another order in any other exchange passes. A response check: every 200 of a fixed catalog equals the example.',
  },
  {
    operator: /^(skip-write|write-different)$/,
    operation: '*',
    target: '*',
    verdict: 'blind-spot',
    note: 'A write answered as done that did not happen, or stored another value than the answer claims: visible to a later read of the resource, but the runner reads back only in the checks built for it (read-back, patch_semantics, put_validators ...), each after its own write; the writes of the other checks (positive_data_acceptance, probes) are never followed up. A check: read back after every successful write of the run (the GET its links lead to) and compare with the request.',
  },

  {
    operator: 'status-swap',
    operation: '*',
    target: /->429$/,
    verdict: 'blind-spot',
    note: 'Contract page: "Over the limit: 429 with `Retry-After` (integer seconds)". The runner retries a 429 after its wait without judging it, so a 429 with no Retry-After, or while RateLimit says requests remain, passes. A check: every 429 received carries Retry-After and a RateLimit with 0 remaining (the response checks see the 429 before the retry).',
  },
  {
    operator: 'status-swap',
    operation: '*',
    target: '200->304',
    verdict: 'blind-spot',
    note: 'A 304 where the control answered 200 (the conditional request did not match): if_none_match_precedence and the conditional checks accept it in this exchange. Contract page: "without `If-None-Match`, `If-Modified-Since` ... does the same"; "On GET/HEAD, a matching If-None-Match (weak comparison) gives 304": a 304 to a non-matching validator is a false "not modified". Needs a check that a 304 is given only when the validators match (not investigated further).',
  },
  {
    operator: /^(list-|body-drop$|body-add$)/,
    operation: /^list/,
    target: /^(\(root\)|content)$/,
    method: /^(GET|HEAD)$/,
    status: (s) => s === 200,
    verdict: 'blind-spot',
    note: "A list answered with an item less, more, twice or in another order in an exchange whose check does not look at the content (cross_origin_reads, accept_wildcards ...): the list's content is judged only by the checks that made the state (filter, sort, paging, role checks) in their own exchanges. A check: two GETs of the same list with nothing written in between answer the same items (a response-level oracle by validator: same ETag, same body).",
  },

  {
    operator: 'write-twice',
    operation: 'refreshToken',
    target: '-',
    verdict: 'blind-spot',
    note: 'A refresh sent twice: the second is a reuse, which "revokes its family" (contract page, invalid-refresh-token), so the pair the client received is dead at once. refresh_rotation\'s later steps expect refusals anyway. A check: the refresh token a rotation answers is accepted by the next refresh (before any reuse).',
  },
  {
    operator: 'body-alter',
    operation: /^list/,
    target: /^(content)?\[\]\./,
    method: /^(GET|HEAD)$/,
    status: (s) => s === 200,
    verdict: 'blind-spot',
    note: "A member of one item of a list changed to another valid value (a timestamp a day earlier, another name): valid in the one exchange, but the item's own GET shows the true value. A check: each listed item equals its single GET (the link of the item; same ETag-free state).",
  },

  {
    operator: 'body-alter',
    operation: /^get/,
    target: '*',
    method: /^(GET|HEAD)$/,
    status: (s) => s === 200,
    verdict: 'blind-spot',
    note: 'One read of a resource answers a member with another valid value (another product, a timestamp a day earlier): valid alone, but the same state read again (same strong ETag, contract page: "Single resources ... carry a strong `ETag`") shows the true one. A check: two reads with the same strong ETag answer byte-identical bodies; or every read is compared with the state the run knows.',
  },
  {
    operator: /^(list-truncate|list-duplicate|list-reorder)$/,
    operation: /^get/,
    target: /(^|\.)items$/,
    status: (s) => s === 200,
    verdict: 'blind-spot',
    note: 'Embedded items (`expand=items`, x-apikit-items: items "read through the link `read` with its `query`") answered with one missing or doubled: expand_honoured checks that they are embedded, not that they are all the items the link reads. A check: the embedded list equals the list read through the link (as a set).',
  },
  {
    operator: /^header-param-(drop|alter)$/,
    operation: /^list/,
    target: /^link:/,
    status: (s) => s === 200,
    verdict: 'blind-spot',
    note: 'A page\'s `Link` with a relation renamed or dropped (listUsers: "`Link` points to the first, ..."): paging_invariants judges the Link of the pages it walks, not of every page answer of the run. A response check: every page answer of a paged list carries the relations the contract lists, with valid targets.',
  },
  {
    operator: HEADER_OPS,
    operation: '*',
    target: /^cache-control(:|$)/,
    method: /^(PUT|PATCH|POST|DELETE)$/,
    verdict: 'blind-spot',
    note: 'Contract page: "`Cache-Control: private, no-cache` on resources ... `no-store` under `/auth` and on every problem": a write\'s answer with an unknown directive passes (the header\'s value is judged on reads and problems only). A response check: the Cache-Control of every answer holds the directives the contract gives its kind.',
  },

  {
    operator: /^header-(drop|alter)$/,
    operation: '*',
    target: /^(vary|etag|last-modified|cache-control|x-request-id|ratelimit|ratelimit-policy)$/,
    method: 'HEAD',
    check: 'get_is_safe',
    verdict: 'blind-spot',
    note: 'A HEAD answer of get_is_safe without (or with another) header its GET declares as required (Vary is `required: true`): not judged. HEAD is "as GET, headers only, no body" (interface document). A check: every HEAD answer carries the GET\'s declared headers with the GET\'s values (head_matches_get does it for its own pair only).',
  },

  {
    operator: HEADER_OPS,
    operation: '*',
    target: /^accept-patch(:|$)/,
    verdict: 'blind-spot',
    note: 'Accept-Patch ("Media types accepted by `PATCH` on this path", spec; on OPTIONS and on a PATCH\'s 415, RFC 5789 3.2) is checked for presence only: a wrong or missing media type passes. A check: the header lists exactly the PATCH requestBody content types of the path.',
  },

  {
    operator: 'body-alter',
    operation: '*',
    target: '*',
    status: (s) => s === 201,
    verdict: 'blind-spot',
    note: "A 201 whose body says another value than was created (another id, another userId than the path's parent, another product) passes where the runner does not follow the creation up. A response check: the 201 body's id field (x-apikit-ids `field`) is the last segment of the Location, the members sent are echoed, and the GET of the Location answers the same body.",
  },
  {
    operator: 'body-alter',
    operation: '*',
    target: 'id',
    method: /^(PATCH|PUT)$/,
    status: (s) => s === 200,
    verdict: 'blind-spot',
    note: "A 200 to a change of one resource whose id field names another resource passes where the check that sent it judges only the media type or the status (seen in documented_media_types on updateUser). A response check: the id field (x-apikit-ids `field`) of a single resource's 2xx answer is the path's last identifier.",
  },
  {
    operator: 'header-alter',
    operation: '*',
    target: 'etag',
    status: (s) => s === 304,
    verdict: 'blind-spot',
    note: "A 304 whose ETag is not the tag the client matched (RFC 9110 15.4.5: a 304 carries the validator a 200 would) passes: conditional_get judges its status and the absent body, the response checks its presence and syntax. A check: the 304's ETag is the If-None-Match tag that matched.",
  },
  {
    operator: 'header-alter',
    operation: '*',
    target: 'last-modified',
    method: /^(GET|HEAD)$/,
    status: (s) => s === 200,
    verdict: 'blind-spot',
    note: "Last-Modified an hour earlier in one read: single resources' \"Last-Modified from updatedAt\" (the body's updatedAt, or the newest of an expanded order's parts) and the catalogs' dataSetDated (\"one date shared by all of them\") make it visible in the same answer or the next; only presence and format are judged. A response check: Last-Modified equals the body's updatedAt (to the second), or the data set's date for dataSetDated GETs.",
  },
  {
    operator: 'status-swap',
    operation: '*',
    target: /^400->2\d\d$/,
    check: /^(validation_errors|negative_data_rejection|bounded_errors)$/,
    verdict: 'blind-spot',
    note: "A request the contract refuses with 400 answered 2xx in this exchange: the check that sent it judges the 400's entries when it gets one and does not fail the 2xx (seen in validation_errors on resetData's body). A check: every generated negative case of these checks must be refused (4xx).",
  },

  // ---- exchanges no response check sees ----
  {
    operator: /^(header-|body-|list-|problem-|status-)/,
    operation: '*',
    target: '*',
    check: UNOBSERVED,
    verdict: 'blind-spot',
    note: "The answer came to a check that sends past ctx.call (the setup's base-URL probe and logins, operation_implemented, the probes of CORS, request ids, routing, methods, versions, HEAD auth, check order, rate limits ...): it is judged for that check's property only, never by the response checks (schema, headers, content type, not_a_server_error), so any other defect confined to it passes. Closing it is generic: pass those exchanges to collector.observe like ctx.call does.",
  },
];
