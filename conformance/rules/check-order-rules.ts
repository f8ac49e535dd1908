import { C, judged, noCheck, type Rule } from './rule.js';

const REQUESTS = C('Precise rules / Requests');
const STEPS =
  'check order: unknown route 404 -> 405 (501) -> 401 -> 403 -> 406 -> 413 -> 415 -> 400 (path, query) -> 404 (resource) -> 412 -> 400 (body) -> 409 / 422';
const TWO_WAYS = 'no check sends a request broken in two ways at once';

/** One row per step of the check order: the status that must win over the next. */
const step = (id: string, says: string): Rule =>
  noCheck(`http.check-order.${id}`, `${says} (${STEPS})`, REQUESTS, TWO_WAYS);

/** The check order between statuses, step by step. */
export const checkOrderRules: Rule[] = [
  judged(
    'http.check-order.404-before-405',
    `an unknown route is 404 before a method 405 (${STEPS})`,
    REQUESTS,
    ['strict_routing'],
    ['unknown-path-405'],
  ),
  step('405-before-401', 'a method 405 before a 401'),
  step('401-before-403', 'a 401 before a 403'),
  step('403-before-406', 'a 403 before 406, 413 and 415'),
  step('415-before-400', 'a 415 before a 400 of the path or query'),
  step('400-before-404', 'a 400 of the path or query before a 404 of the resource'),
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
  step('412-before-400', 'a 412 before a 400 of the body, then 409 / 422'),
];
