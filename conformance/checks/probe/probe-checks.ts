import type { Check } from '../check.js';
import { absentResource } from './absent-resource.js';
import { notAcceptable } from './accept.js';
import { adminRoleRequired, ignoredAuth } from './auth.js';
import { allowHeaderConformance, unsupportedMethod } from './methods.js';
import { negativeDataRejection } from './negative-data.js';
import { positiveDataAcceptance } from './positive-data.js';
import { payloadTooLarge } from './payload-too-large.js';
import { missingRequiredHeader } from './required-header.js';
import { cacheControlPresent, problemJson } from './problem-json-and-cache.js';

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
