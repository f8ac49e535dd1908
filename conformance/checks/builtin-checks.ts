import { CheckRegistry } from './check-registry.js';
import { operationImplemented } from './probe/operation-implemented.js';
import { probeChecks } from './probe/probe-checks.js';
import { absentParent } from './probe/absent-parent.js';
import { httpConventionChecks } from './probe/http-convention-checks.js';
import { acceptWildcards } from './probe/accept-wildcards.js';
import { requestExamples } from './probe/request-examples.js';
import { documentedMediaTypes } from './probe/request-media-types.js';
import { responseChecks } from './response/response-checks.js';
import { serviceChecks } from './service-checks.js';
import { rateLimitExceeded } from './probe/rate-limit-exceeded.js';
import { adminReset } from './stateful/admin-reset.js';
import { deletedUserToken } from './stateful/deleted-user-token.js';
import { preconditionsAfterRefusal } from './stateful/preconditions-after-refusal.js';
import { conditionalChecks } from './stateful/conditional-checks.js';
import { crossOriginReads } from './stateful/cross-origin-reads.js';
import { putCreateAndReplace } from './stateful/put-create-and-replace.js';
import { putDeleteCycle } from './stateful/put-delete-cycle.js';
import { statefulChecks } from './stateful/stateful-checks.js';
import { stateTransitions } from './stateful/state-transitions.js';
import { uniqueFieldsCheck } from './stateful/unique-fields.js';
import { readOnlyIgnored } from './stateful/read-only-ignored.js';
import { patchSemantics } from './stateful/patch-semantics.js';
import { deleteCascade } from './stateful/delete-cascade.js';
import { initialItemsCheck } from './stateful/initial-items.js';
import { sessionTokens } from './stateful/session-tokens.js';
import { sessionRevocation } from './stateful/session-revocation.js';
import { roleInvariants } from './stateful/role-invariants.js';
import { roleHolders } from './stateful/role-holders.js';
import { idAllocationCheck } from './stateful/id-allocation.js';
import { sortHonoured } from './stateful/sort-honoured.js';
import { fixedCatalogCheck } from './stateful/fixed-catalog.js';
import { parentStatesCheck } from './stateful/parent-states.js';
import { unknownReferences } from './stateful/unknown-references.js';
import { guardedWrites } from './stateful/guarded-writes.js';
import { judgedOnStateBefore } from './stateful/judged-on-state-before.js';
import { scopedLookup } from './stateful/scoped-lookup.js';
import { embeddedItemsCheck } from './stateful/embedded-items.js';
import { writesReadBackCheck } from './stateful/writes-read-back-check.js';

/**
 * A registry holding every built-in check. Users add their own with `register` and select
 * any of them by name.
 *
 * @example
 * const registry = createDefaultRegistry().register(myCheck);
 */
export function createDefaultRegistry(): CheckRegistry {
  return new CheckRegistry().register(
    ...responseChecks,
    // First of all: what the target lacks is found once, and the checks after leave it alone.
    operationImplemented,
    // First of the others: it reads every user's roles, before the run made its own.
    roleHolders,
    ...probeChecks,
    absentParent,
    ...httpConventionChecks,
    acceptWildcards,
    ...statefulChecks,
    preconditionsAfterRefusal,
    ...conditionalChecks,
    crossOriginReads,
    documentedMediaTypes,
    requestExamples,
    ...serviceChecks,
    putCreateAndReplace,
    putDeleteCycle,
    uniqueFieldsCheck,
    stateTransitions,
    readOnlyIgnored,
    patchSemantics,
    deleteCascade,
    initialItemsCheck,
    sessionTokens,
    sessionRevocation,
    roleInvariants,
    idAllocationCheck,
    sortHonoured,
    fixedCatalogCheck,
    parentStatesCheck,
    unknownReferences,
    guardedWrites,
    judgedOnStateBefore,
    scopedLookup,
    embeddedItemsCheck,
    // After the checks that write: it reports the read-backs of their writes (decision 0125).
    writesReadBackCheck,
    // Late: the reset takes away what the run made and its refresh tokens (--allow-destructive).
    adminReset,
    deletedUserToken,
    // Last: it spends the login budget (--provoke-rate-limits).
    rateLimitExceeded,
  );
}
