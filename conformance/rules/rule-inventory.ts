import { authRules } from './auth-rules.js';
import { cacheRules } from './cache-rules.js';
import { cacheValidatorRules } from './cache-validator-rules.js';
import { checkOrderRules } from './check-order-rules.js';
import { httpErrorRules } from './http-error-rules.js';
import { httpRules } from './http-rules.js';
import { listRules } from './list-rules.js';
import { orderRules } from './order-rules.js';
import type { RuleArea } from './rule.js';
import { roleRules } from './role-rules.js';
import { serviceRules } from './service-rules.js';
import { userRules } from './user-rules.js';
import { writeEffectRules } from './write-effect-rules.js';

/**
 * Every rule of the interface document and the contract page, by area: the data behind
 * docs/conformance-rules.md (`npm run render:rules`), checked against the registry and the
 * fault table by its test.
 *
 * @example
 * const rules = ruleInventory.flatMap((area) => area.rules);
 */
export const ruleInventory: RuleArea[] = [
  { id: 'auth', title: 'Authentication and tokens', rules: authRules },
  { id: 'users', title: 'Users: uniqueness, writes and the user state machine', rules: userRules },
  { id: 'orders', title: 'Orders and the order state machine', rules: orderRules },
  {
    id: 'roles',
    title: 'Roles, invariants, ids and the store',
    rules: [...roleRules, ...writeEffectRules],
  },
  {
    id: 'http',
    title: 'Methods, routing, media types, errors, check order',
    rules: [...httpRules, ...httpErrorRules, ...checkOrderRules],
  },
  {
    id: 'cache',
    title: 'Conditional requests, validators, caching',
    rules: [...cacheRules, ...cacheValidatorRules],
  },
  { id: 'lists', title: 'Paging, sorting, filtering', rules: listRules },
  {
    id: 'service',
    title: 'Idempotency, open routes, request id, rate limits, CORS',
    rules: serviceRules,
  },
];

/**
 * Registered checks that judge no rule of the two documents, and why: generic checks of
 * OpenAPI that this contract gives nothing to judge.
 */
export const checksWithoutRule: Record<string, string> = {
  missing_required_header:
    'generic OpenAPI check: this contract declares no required request header, so it skips',
  operation_implemented:
    'generic check of any target: whether it routes an operation at all (a backend built one operation at a time, decision 0096); what a routed operation must do, the other checks judge',
};
