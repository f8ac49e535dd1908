import type { Check } from '../check.js';
import { ifNoneMatchPrecedence } from './conditional-precedence.js';
import { expandedValidators } from './expanded-validators.js';
import { idempotencyKeyInFlight } from './idempotency-key-in-flight.js';
import { idempotencyKeyScope } from './idempotency-key-scope.js';
import { idempotencyKeyRefusals, idempotencyKeyValidation } from './idempotency-key-validation.js';
import { dataSetDated, undatedLists } from './list-validators.js';
import { putValidators } from './put-validators.js';
import { ifNoneMatchWrite, putIfMatchAbsent } from './unsafe-preconditions.js';

/**
 * Conditional requests, validators and idempotency keys beyond the first round of stateful
 * checks (decision 0090): If-None-Match over If-Modified-Since, If-None-Match on writes,
 * If-Match at an absent id, PUT answers without validators, the validators of an expanded
 * representation, the scope and in-flight handling of Idempotency-Key, and the validators of
 * lists where `x-apikit-http` declares them. Read-only first.
 */
export const conditionalChecks: Check[] = [
  undatedLists,
  dataSetDated,
  ifNoneMatchPrecedence,
  expandedValidators,
  ifNoneMatchWrite,
  putIfMatchAbsent,
  putValidators,
  idempotencyKeyScope,
  idempotencyKeyInFlight,
  idempotencyKeyValidation,
  idempotencyKeyRefusals,
];
