import type { Check } from './check.js';
import { deleteTwice } from './stateful-delete-twice.js';
import { etagConditional } from './stateful-etag-conditional.js';
import { expandHonoured } from './stateful-expand-honoured.js';
import { filterHonoured } from './stateful-filter-honoured.js';
import { getIsSafe } from './stateful-get-is-safe.js';
import { headMatchesGet } from './stateful-head-matches-get.js';
import { idempotencyKeyReplay } from './stateful-idempotency-key-replay.js';
import { ifMatchPrecondition } from './stateful-if-match-precondition.js';
import { lastModifiedConditional } from './stateful-last-modified-conditional.js';
import { locationResolves } from './stateful-location-resolves.js';
import { pagingInvariants } from './stateful-paging-invariants.js';
import { patchKeepsFields } from './stateful-patch-keeps-fields.js';
import { putIdempotent } from './stateful-put-idempotent.js';
import { refreshRotation } from './stateful-refresh-rotation.js';
import { ensureResourceAvailability } from './stateful-resource-availability.js';
import { useAfterFree } from './stateful-use-after-free.js';

/**
 * Checks that create resources and follow the spec's links, and judge HTTP semantics over
 * several requests: availability after creation, deletion, Location, HEAD, conditional
 * requests, PUT/PATCH semantics, safety of GET, paging, filters, expansion, idempotency keys
 * and refresh-token rotation. Read-only checks come first: the others change data.
 */
export const statefulChecks: Check[] = [
  headMatchesGet,
  getIsSafe,
  etagConditional,
  lastModifiedConditional,
  pagingInvariants,
  filterHonoured,
  expandHonoured,
  ensureResourceAvailability,
  locationResolves,
  useAfterFree,
  deleteTwice,
  ifMatchPrecondition,
  putIdempotent,
  patchKeepsFields,
  idempotencyKeyReplay,
  refreshRotation,
];
