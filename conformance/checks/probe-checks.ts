import type { Check } from './check.js';
import { absentResource } from './probe-absent-resource.js';
import { notAcceptable } from './probe-accept.js';
import { adminRoleRequired, ignoredAuth } from './probe-auth.js';
import { allowHeaderConformance, unsupportedMethod } from './probe-methods.js';
import { negativeDataRejection } from './probe-negative-data.js';
import { positiveDataAcceptance } from './probe-positive-data.js';
import { payloadTooLarge } from './probe-payload-too-large.js';
import { missingRequiredHeader } from './probe-required-header.js';
import { cacheControlPresent, problemJson } from './probe-response-checks.js';

/** Active probes of requests and protocol rules, and the response checks they rely on. */
export const probeChecks: Check[] = [
  problemJson,
  cacheControlPresent,
  positiveDataAcceptance,
  negativeDataRejection,
  missingRequiredHeader,
  unsupportedMethod,
  allowHeaderConformance,
  ignoredAuth,
  adminRoleRequired,
  notAcceptable,
  payloadTooLarge,
  absentResource,
];
