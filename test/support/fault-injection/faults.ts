import type { FaultHooks } from './fault-proxy.js';
import {
  locationDropped,
  createAnswers200,
  createdAtMissing,
  passwordHashLeaked,
  jsonAsTextPlain,
  wwwAuthenticateMissing,
  errorsAsPlainJson,
  problemStatusMismatch,
  cacheControlDropped,
  etagMissing,
  catalogListsWithoutLastModified,
  acceptIgnored,
} from './answer-faults.js';
import {
  authNotEnforced,
  roleNotEnforced,
  refreshReuseAllowed,
  loginUnknownUser400,
} from './auth-faults.js';
import {
  invalidDataAccepted,
  longNamesRejected,
  createWithoutAgeCrashes,
  mergePatchRefused,
} from './input-faults.js';
import {
  statusFilterIgnored,
  sizeIgnored,
  expandIgnored,
  sortByEmailCrashes,
  pagingTotalsOffByOne,
  linkNextMissing,
} from './listing-faults.js';
import {
  status405WithoutAllow,
  optionsAllowMissesHead,
  headWithoutValidators,
  ifNoneMatchIgnored,
  ifModifiedSinceIgnored,
  ifMatchIgnored,
  preconditionsBeforeRefusal,
  getRecordsVisits,
} from './method-faults.js';
import {
  deleteDoesNotDelete,
  secondDelete204,
  staleReadAfterDelete,
  staleCacheAfterDelete,
  patchResetsUnsent,
  putKeepsUnsent,
  idempotencyKeyIgnored,
  newUserNotReadable,
  putCreateAnswers200,
  roleRemovalNotFound,
  roleAssignTwice409,
} from './write-faults.js';
import { duplicateEmailOtherCase, duplicateEmail422 } from './unique-faults.js';
import {
  shippedOrderCancellable,
  invalidTransition422,
  orderCancelRefused409,
  orderPatchStatusIgnored,
  newOrderPaid,
  sameStatus409,
} from './state-machine-faults.js';
import {
  refreshFamilyKept,
  authAnswersNoCache,
  algNoneAccepted,
  loginWithoutTokenType,
  refreshOtherShape,
  expiresInString,
  loginMissingFields422,
} from './session-faults.js';
import { oversizedBodyParsed, textPlainBodyAccepted } from './media-faults.js';
import {
  weakEtagOnUser,
  lastModifiedMissing,
  notModifiedWithoutEtag,
  requestIdMissing,
  problemCacheable,
  locationAbsoluteUri,
  optionsWithoutAcceptPatch,
  varyMissing,
  problemInstanceUnprefixed,
  optionsNeedsToken,
} from './header-faults.js';
import { pastEndServesLastPage } from './paging-faults.js';
import { absentIfMatch412 } from './precondition-faults.js';
import {
  unknownQueryIgnored,
  unknownStatusIgnored,
  unknownSortIgnored,
  sizeOver100Clamped,
  lenientQueryIntegers,
} from './query-faults.js';
import {
  longIdempotencyKeyIgnored,
  unknownExpandIgnored,
  pathIdParseInt,
  nullNameAsAbsent,
  loneSurrogateReplaced,
  orderUnknownPropertiesDropped,
  longEmailTruncated,
  idempotencyReplayIgnoresBody,
} from './lenient-input-faults.js';
import {
  orderStatusFilterIgnored,
  orderForMissingUser422,
  absentOrderPut403,
  orderLocationDropped,
  orderSecondDelete204,
} from './order-faults.js';
import {
  newUserActive,
  activateIgnored,
  activateActive409,
  activateBlocked200,
  blockInactiveIgnored,
  blockActiveIgnored,
  blockBlocked409,
  unblockToActive,
  unblockInactive409,
  unblockDemotesActive,
} from './user-lifecycle-faults.js';
import {
  roleLinkNeedsNoAdmin,
  unknownRole400,
  roleLinkAnswersGet,
  roleRemovalNotHeld204,
} from './role-faults.js';

/**
 * One deliberately broken variant of the reference server: a single behaviour a buggy
 * backend really gets wrong, and the registered check that is its natural detector.
 */
export interface Fault {
  name: string;
  description: string;
  /** The check that must fail on this variant (others may fail too). */
  expectedCheck: string;
  /** operationIds or tags the run may be narrowed to, only to keep it short. */
  include?: string[];
  /** The transformation, made fresh for each run (some faults keep state). */
  create(): FaultHooks;
}

/** Every fault, in the order the suite runs them; each defined with its family. */
export const faults: Fault[] = [
  locationDropped,
  createAnswers200,
  statusFilterIgnored,
  sizeIgnored,
  expandIgnored,
  createdAtMissing,
  passwordHashLeaked,
  jsonAsTextPlain,
  authNotEnforced,
  wwwAuthenticateMissing,
  roleNotEnforced,
  status405WithoutAllow,
  optionsAllowMissesHead,
  ifNoneMatchIgnored,
  ifModifiedSinceIgnored,
  ifMatchIgnored,
  preconditionsBeforeRefusal,
  deleteDoesNotDelete,
  secondDelete204,
  staleReadAfterDelete,
  staleCacheAfterDelete,
  patchResetsUnsent,
  putKeepsUnsent,
  headWithoutValidators,
  errorsAsPlainJson,
  problemStatusMismatch,
  cacheControlDropped,
  idempotencyKeyIgnored,
  invalidDataAccepted,
  longNamesRejected,
  createWithoutAgeCrashes,
  sortByEmailCrashes,
  pagingTotalsOffByOne,
  linkNextMissing,
  refreshReuseAllowed,
  etagMissing,
  getRecordsVisits,
  acceptIgnored,
  newUserNotReadable,
  catalogListsWithoutLastModified,
  mergePatchRefused,
  putCreateAnswers200,
  loginUnknownUser400,
  roleRemovalNotFound,
  roleAssignTwice409,
  refreshFamilyKept,
  authAnswersNoCache,
  oversizedBodyParsed,
  textPlainBodyAccepted,
  weakEtagOnUser,
  lastModifiedMissing,
  notModifiedWithoutEtag,
  requestIdMissing,
  problemCacheable,
  locationAbsoluteUri,
  optionsWithoutAcceptPatch,
  pastEndServesLastPage,
  absentIfMatch412,
  unknownQueryIgnored,
  unknownStatusIgnored,
  unknownSortIgnored,
  sizeOver100Clamped,
  lenientQueryIntegers,
  longIdempotencyKeyIgnored,
  unknownExpandIgnored,
  pathIdParseInt,
  nullNameAsAbsent,
  loneSurrogateReplaced,
  orderUnknownPropertiesDropped,
  orderStatusFilterIgnored,
  orderForMissingUser422,
  absentOrderPut403,
  orderLocationDropped,
  roleLinkNeedsNoAdmin,
  unknownRole400,
  roleLinkAnswersGet,
  algNoneAccepted,
  loginWithoutTokenType,
  refreshOtherShape,
  expiresInString,
  loginMissingFields422,
  varyMissing,
  problemInstanceUnprefixed,
  optionsNeedsToken,
  orderSecondDelete204,
  roleRemovalNotHeld204,
  longEmailTruncated,
  idempotencyReplayIgnoresBody,
  duplicateEmailOtherCase,
  duplicateEmail422,
  shippedOrderCancellable,
  invalidTransition422,
  orderCancelRefused409,
  orderPatchStatusIgnored,
  newOrderPaid,
  sameStatus409,
  newUserActive,
  activateIgnored,
  activateActive409,
  activateBlocked200,
  blockInactiveIgnored,
  blockActiveIgnored,
  blockBlocked409,
  unblockToActive,
  unblockInactive409,
  unblockDemotesActive,
];
