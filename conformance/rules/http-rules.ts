import { httpOptionsRules } from './http-options-rules.js';
import { C, I, clause, judged, outsideClause, split, type Rule } from './rule.js';

const REQUESTS = C('Precise rules / Requests');
const MEDIA = C('Media types and negotiation');
/** Methods, routing and request media types (answers and errors: http-error-rules.ts). */
export const httpRules: Rule[] = [
  split(
    'http.method.405-allow',
    'a method the path does not support: 405 with an Allow header',
    C('Errors: RFC 9457 problem details'),
    [
      clause(
        'status',
        'a standard method the path does not declare is answered 405 (not 404)',
        ['unsupported_method'],
        ['unsupported-method-404'],
      ),
      clause(
        'allow-present',
        'the 405 carries an Allow header',
        ['unsupported_method'],
        ['405-without-allow'],
      ),
      clause(
        'allow-lists-declared',
        "the 405's Allow lists the path's methods and not the refused one",
        ['unsupported_method'],
        ['method-not-allowed-lists-every'],
      ),
    ],
  ),
  judged(
    'http.method.501-unrecognized',
    'unrecognized methods: 501',
    REQUESTS,
    ['unrecognized_method'],
    ['unknown-method-405'],
  ),
  ...httpOptionsRules,
  split(
    'http.method.head',
    'HEAD wherever GET is: as GET, headers only, no body',
    I('Method semantics'),
    [
      clause(
        'status',
        'HEAD answers the status GET answers',
        ['head_matches_get'],
        ['head-answers-204'],
      ),
      clause(
        'content-type',
        'HEAD carries the Content-Type of GET',
        ['head_matches_get'],
        ['head-without-content-type'],
      ),
      clause(
        'required-headers',
        'every HEAD answer carries the headers its GET declares as required for that status',
        ['head_declared_headers'],
        ['head-without-vary'],
      ),
      outsideClause(
        'no-body',
        'HEAD sends no body',
        'HTTP framing ends a HEAD answer at its headers (RFC 9112 6.3): a client reads no body whatever the server writes, and Node servers drop it; the validators of HEAD are cond.validators.get-head-post-patch#head',
      ),
    ],
  ),
  judged(
    'http.method.head-needs-token',
    'HEAD needs the same token as GET',
    REQUESTS,
    ['head_requires_auth'],
    ['head-skips-auth'],
  ),
  split(
    'http.method.get-safe',
    'GET: safe, changes no state; HEAD and OPTIONS likewise',
    I('Method semantics'),
    [
      clause('get', 'a GET changes nothing', ['get_is_safe'], ['get-records-visits']),
      clause('head', 'a HEAD changes nothing', ['get_is_safe'], ['head-records-visits']),
      clause('options', 'an OPTIONS changes nothing', ['get_is_safe'], ['options-records-visits']),
    ],
  ),
  split(
    'http.method.put-idempotent',
    'PUT: idempotent (that fields not sent are reset to default or null is judged per resource: users.put.replace, orders.put.replace)',
    I('Method semantics'),
    [
      clause(
        'repeat-status',
        'the same PUT again answers the same status family',
        ['put_idempotent'],
        ['put-repeat-conflicts'],
      ),
      clause(
        'repeat-representation',
        'the same PUT again answers the same representation and leaves the same state',
        ['put_idempotent'],
        ['put-repeat-no-content'],
      ),
    ],
  ),
  split(
    'http.routing.strict',
    'routing is strict and case-sensitive: /users/ and /USERS are 404',
    REQUESTS,
    [
      clause(
        'trailing-slash',
        'a path with a trailing slash is 404',
        ['strict_routing'],
        ['trailing-slash-routed'],
      ),
      clause(
        'letter-case',
        'a path in another letter case is 404',
        ['strict_routing'],
        ['case-insensitive-routing'],
      ),
    ],
  ),
  judged(
    'http.routing.no-extensions',
    'no file extensions: /users.json is not a route (404)',
    MEDIA,
    ['strict_routing'],
    ['json-extension-routed'],
  ),
  split(
    'http.routing.versions',
    '/api is an alias of the newest version; /api/v2 and other unknown versions answer 404',
    C('Addresses and versions'),
    [
      clause(
        'unknown-404',
        '/api/v2 and other unknown versions answer 404',
        ['version_routing'],
        ['any-version-routed'],
      ),
      clause(
        'alias-served',
        '/api serves the newest version',
        ['version_routing'],
        ['version-alias-missing'],
      ),
      clause(
        'alias-links-versioned',
        'answers through /api name the versioned paths (Location, Link, instance under /api/v1)',
        ['version_routing'],
        ['alias-links-unversioned'],
      ),
    ],
  ),
  split(
    'http.media.request-json',
    'request bodies: application/json; any other or no Content-Type on a body: 415',
    MEDIA,
    [
      clause(
        'other-type',
        'a body of another media type is 415',
        ['negative_data_rejection'],
        ['text-plain-body-accepted'],
      ),
      clause(
        'no-content-type',
        'a body without Content-Type is 415',
        ['negative_data_rejection'],
        ['body-without-content-type-accepted'],
      ),
    ],
  ),
  judged(
    'http.media.merge-patch',
    'PATCH also takes application/merge-patch+json (RFC 7396 semantics either way)',
    MEDIA,
    ['documented_media_types'],
    ['merge-patch-refused'],
  ),
  split('http.media.charset-utf8', 'charset, if given, is UTF-8', REQUESTS, [
    clause(
      'other-charset-415',
      'a charset other than UTF-8 is 415',
      ['charset_parameter'],
      ['latin1-charset-accepted'],
    ),
    clause(
      'utf8-accepted',
      'charset=utf-8 is taken',
      ['charset_parameter'],
      ['utf8-charset-refused'],
    ),
  ]),
  split(
    'http.media.bodiless-actions',
    'bodiless actions (activate, cancel, block, unblock, reset, role PUT) take an empty body or {}; anything else is 400',
    REQUESTS,
    [
      clause(
        'empty-object',
        'a bodiless action takes {}',
        ['positive_data_acceptance'],
        ['action-empty-object-refused'],
      ),
      clause(
        'other-body-400',
        'a bodiless action refuses any other body with 400',
        ['negative_data_rejection'],
        ['action-body-ignored'],
      ),
    ],
  ),
  split(
    'http.media.response-json',
    'responses: application/json; errors: application/problem+json',
    MEDIA,
    [
      clause(
        'success',
        'success bodies are application/json',
        ['content_type_conformance'],
        ['json-as-text-plain'],
      ),
      clause(
        'errors',
        'error bodies are application/problem+json',
        ['problem_json'],
        ['errors-as-plain-json'],
      ),
    ],
  ),
];
