import { C, clause, judged, split, type Rule } from './rule.js';

const REQUESTS = C('Precise rules / Requests');
const STEPS =
  'check order: unknown route 404 -> 405 (501) -> 401 -> 403 -> 406 -> 413 -> 415 -> 400 (path, query) -> 404 (resource) -> 412 -> 400 (body) -> 409 / 422';

/** A step judged by check_order (`x-apikit-http.checkOrder`), proven by `fault`. */
const proven = (id: string, says: string, fault: string): Rule =>
  judged(`http.check-order.${id}`, `${says} (${STEPS})`, REQUESTS, ['check_order'], [fault]);

/** The check order between statuses, step by step. */
export const checkOrderRules: Rule[] = [
  judged(
    'http.check-order.404-before-405',
    `an unknown route is 404 before a method 405 (${STEPS})`,
    REQUESTS,
    ['strict_routing'],
    ['unknown-path-405'],
  ),
  proven('405-before-401', 'a method 405 before a 401', 'auth-before-method'),
  proven('401-before-403', 'a 401 before a 403', 'role-before-auth'),
  split('http.check-order.403-before-406', `a 403 before 406, 413 and 415 (${STEPS})`, REQUESTS, [
    clause(
      '406',
      'a caller without the role asking for a media type the operation cannot give: 403, not 406',
      ['check_order'],
      ['accept-before-role'],
    ),
    clause(
      '413',
      'a caller without the role sending a body over the limit: 403, not 413',
      ['check_order'],
      ['size-before-role'],
    ),
    clause(
      '415',
      'a caller without the role sending a body in a media type the operation does not take: 403, not 415',
      ['check_order'],
      ['media-type-before-role'],
    ),
  ]),
  proven('415-before-400', 'a 415 before a 400 of the path or query', 'query-before-media-type'),
  proven(
    '400-before-404',
    'a 400 of the path or query before a 404 of the resource',
    'resource-before-query',
  ),
  judged(
    'http.check-order.404-before-412',
    `a 404 of the resource before a 412 (${STEPS})`,
    REQUESTS,
    ['preconditions_after_refusal'],
    ['absent-if-match-412'],
  ),
  judged(
    'http.check-order.403-before-412',
    `a 403 before a 412: a USER changing a user who holds ADMIN with a stale If-Match gets 403 (${STEPS})`,
    REQUESTS,
    ['preconditions_after_refusal'],
    ['preconditions-before-refusal'],
  ),
  proven(
    '412-before-400',
    'a 412 before a 400 of the body, then 409 / 422',
    'body-before-preconditions',
  ),
];
