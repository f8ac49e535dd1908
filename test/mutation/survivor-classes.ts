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

  // ---- blind spots ----
  {
    operator: /^(header-|body-|list-|problem-|status-)/,
    operation: '*',
    target: '*',
    check:
      /^(strict_routing|unrecognized_method|unsupported_method|version_routing|served_routes|header_limit)$/,
    verdict: 'blind-spot',
    note: "An answer to a request that addresses no operation of the spec (a path with a trailing slash or another version, a method the path does not declare, an unknown method): no operation's responses describe it, so the response checks leave it alone (0129) and its check judges the status it wants. The contract still fixes what every error is (problem+json, no-store, X-Request-Id). A check: judge such answers by the spec's generic error response (the 404/405/501 of `x-apikit-http`).",
  },
  {
    operator: 'body-alter',
    operation: '*',
    target: 'errors[].pointer',
    status: (s) => s === 400,
    check: 'bounded_errors',
    verdict: 'blind-spot',
    note: 'A pointer of a 400 cut at its bound altered to another place: bounded_errors asks that every entry names one of the unknown properties it sent and that the first found are listed, so a pointer moved to another property of the same probe can pass. A check: the entries name exactly the first properties in the order sent, each once.',
  },
  {
    operator: 'header-drop',
    operation: '*',
    target: 'access-control-allow-origin',
    check: 'cors_headers',
    verdict: 'blind-spot',
    note: "A CORS answer without Access-Control-Allow-Origin on one path: a target may refuse the probe's origin (its allowed origins configured), so the header's absence is not judged, though `x-apikit-service.cors` holds for every path alike. A check: an origin allowed on one path is allowed on all.",
  },
  {
    operator: 'header-alter',
    operation: '*',
    target: 'etag',
    method: /^(GET|HEAD)$/,
    status: (s) => s === 200,
    verdict: 'blind-spot',
    note: 'Another ETag for the same state in one read: same_validator_same_body compares the bodies answered under one tag, not the tags of one body. A client revalidating with that tag gets a 200 where a 304 was due. A check: two reads of the same URL with nothing written between answer the same tag (needs the quiet window writes_read_back keeps).',
  },
  {
    operator: 'write-twice',
    operation: '*',
    target: '-',
    method: 'POST',
    status: (s) => s === 201,
    verdict: 'blind-spot',
    note: "A creating POST applied twice where writes_read_back (0125) does not count the collection around it: past the first 8 creations of its operation, when another write overlapped it, or when its collection is not listed at the POST's path. A check: count every creation made alone, or compare the id sequence of solo creations where x-apikit-ids declares increasing ids.",
  },
  {
    operator: 'list-truncate',
    operation: '*',
    target: 'errors',
    status: (s) => s === 400,
    check: 'negative_data_rejection',
    verdict: 'blind-spot',
    note: "A 400 to a negative case of a query or path parameter missing its entry: negative_data_rejection knows the places a broken body violates (0126, read from the validator), not those of a broken parameter. A check: a parameter case's place is `#/query/<name>` (or path, header): expect that entry.",
  },
  {
    operator: 'body-alter',
    operation: '*',
    target: 'refreshToken',
    check: '(setup)',
    verdict: 'blind-spot',
    note: "The refresh token answered to the run's own logins (the setup) is never presented: the run refreshes only the sessions refresh_rotation starts itself. A check: refresh the run's own session once before its first use of the access token runs out.",
  },
  {
    operator: /^(skip-write|write-different)$/,
    operation: '*',
    target: '*',
    verdict: 'blind-spot',
    note: "A write answered as done that did not happen, or stored another value than answered, where writes_read_back (0125) does not read it back: a write that overlapped another write of the run (the checks' concurrent items: positive_data_acceptance ...), one sent with an Idempotency-Key (idempotency_key_scope ...), an action with no GET of its own to read (logout, activate, cancel: their effect shows in another resource or a later refusal), and the DELETEs of the run's cleanup (after the last check, nothing reads). A check: read back overlapping writes once the others settle (by ETag), and actions through the resource their path names.",
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
];
