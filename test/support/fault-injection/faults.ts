import type { FaultHooks } from './fault-proxy.js';
import * as answerFaults from './answer-faults.js';
import * as authFaults from './auth-faults.js';
import * as checkOrderFaults from './check-order-faults.js';
import * as clauseOrdersFaults from './clause-orders-faults.js';
import * as clauseListsFaults from './clause-lists-faults.js';
import * as clauseCacheFaults from './clause-cache-faults.js';
import * as clauseHttpFaults from './clause-http-faults.js';
import * as clauseRolesFaults from './clause-roles-faults.js';
import * as clauseUsersFaults from './clause-users-faults.js';
import * as clauseAuthFaults from './clause-auth-faults.js';
import * as clauseServiceFaults from './clause-service-faults.js';
import * as clauseSplitFaults from './clause-split-faults.js';
import * as conditionalFaults from './conditional-faults.js';
import * as fuzzFaults from './fuzz-faults.js';
import * as headerFaults from './header-faults.js';
import * as httpErrorFaults from './http-error-faults.js';
import * as httpRoutingFaults from './http-routing-faults.js';
import * as inputFaults from './input-faults.js';
import * as lenientInputFaults from './lenient-input-faults.js';
import * as listingFaults from './listing-faults.js';
import * as mediaFaults from './media-faults.js';
import * as methodFaults from './method-faults.js';
import * as methodListFaults from './method-list-faults.js';
import * as mutationFoundFaults from './mutation-found-faults.js';
import * as refusalEntryFaults from './refusal-entry-faults.js';
import * as observedExchangeFaults from './observed-exchange-faults.js';
import * as orderCascadeFaults from './order-cascade-faults.js';
import * as orderFaults from './order-faults.js';
import * as orderListFaults from './order-list-faults.js';
import * as pagingFaults from './paging-faults.js';
import * as preconditionFaults from './precondition-faults.js';
import * as queryFaults from './query-faults.js';
import * as resourceIdentityFaults from './resource-identity-faults.js';
import * as roleFaults from './role-faults.js';
import * as roleInvariantFaults from './role-invariant-faults.js';
import * as sameStateFaults from './same-state-faults.js';
import * as serviceFaults from './service-faults.js';
import * as sessionAndCachePolicyFaults from './session-and-cache-policy-faults.js';
import * as sessionFaults from './session-faults.js';
import * as sessionTokenFaults from './session-token-faults.js';
import * as stateMachineFaults from './state-machine-faults.js';
import * as uniqueFaults from './unique-faults.js';
import * as userLifecycleFaults from './user-lifecycle-faults.js';
import * as userWriteFaults from './user-write-faults.js';
import * as validatorAgreementFaults from './validator-agreement-faults.js';
import * as writeFaults from './write-faults.js';
import * as writesReadBackFaults from './writes-read-back-faults.js';

/**
 * One deliberately broken variant of the reference server: a single behaviour a buggy
 * backend really gets wrong, and the registered check that is its natural detector.
 */
export interface Fault {
  name: string;
  description: string;
  /** The check that must fail on this variant (others may fail too). */
  expectedCheck: string;
  /**
   * operationIds or tags the run may be narrowed to, only to keep it short. The run calls
   * nothing outside them (decision 0096): they name the operations that make and read what
   * the check needs too (a user for an order, the GET that reads a write back).
   */
  include?: string[];
  /** The run needs --allow-destructive (it blocks or demotes the given accounts). */
  allowDestructive?: true;
  /** Fuzz cases per operation: the run has a fuzz phase (the expected check is a fuzz oracle). */
  fuzz?: number;
  /** The run passes --provoke-rate-limits (the fault is a limiter of its own). */
  provokeRateLimits?: true;
  /** The transformation, made fresh for each run (some faults keep state). */
  create(): FaultHooks;
}

/** The family files, each defining its faults (a fault is any exported {@link Fault}). */
const FAMILIES: readonly Record<string, unknown>[] = [
  answerFaults,
  authFaults,
  checkOrderFaults,
  clauseOrdersFaults,
  clauseListsFaults,
  clauseCacheFaults,
  clauseHttpFaults,
  clauseRolesFaults,
  clauseUsersFaults,
  clauseAuthFaults,
  clauseServiceFaults,
  clauseSplitFaults,
  conditionalFaults,
  fuzzFaults,
  headerFaults,
  httpErrorFaults,
  httpRoutingFaults,
  inputFaults,
  lenientInputFaults,
  listingFaults,
  mediaFaults,
  methodFaults,
  methodListFaults,
  mutationFoundFaults,
  refusalEntryFaults,
  observedExchangeFaults,
  orderCascadeFaults,
  orderFaults,
  orderListFaults,
  pagingFaults,
  preconditionFaults,
  queryFaults,
  resourceIdentityFaults,
  roleFaults,
  roleInvariantFaults,
  sameStateFaults,
  serviceFaults,
  sessionAndCachePolicyFaults,
  sessionFaults,
  sessionTokenFaults,
  stateMachineFaults,
  uniqueFaults,
  userLifecycleFaults,
  userWriteFaults,
  validatorAgreementFaults,
  writeFaults,
  writesReadBackFaults,
];

function isFault(value: unknown): value is Fault {
  const candidate = value as Partial<Fault> | null;
  return (
    typeof candidate === 'object' &&
    candidate !== null &&
    typeof candidate.name === 'string' &&
    typeof candidate.expectedCheck === 'string' &&
    typeof candidate.create === 'function'
  );
}

/** Every fault, family by family: a new one needs only its export in its family file. */
export const faults: Fault[] = FAMILIES.flatMap((family) => Object.values(family).filter(isFault));
