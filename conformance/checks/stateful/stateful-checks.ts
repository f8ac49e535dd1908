import type { Check } from '../check.js';
import { deleteTwice } from './delete-twice.js';
import { etagConditional } from './etag-conditional.js';
import { expandHonoured } from './expand-honoured.js';
import { filterHonoured } from './filter-honoured.js';
import { getIsSafe } from './get-is-safe.js';
import { headMatchesGet } from './head-matches-get.js';
import { idempotencyKeyReplay } from './idempotency-key-replay.js';
import { ifMatchPrecondition } from './if-match-precondition.js';
import { lastModifiedConditional } from './last-modified-conditional.js';
import { locationResolves } from './location-resolves.js';
import { pagingInvariants } from './paging-invariants.js';
import { patchKeepsFields } from './patch-keeps-fields.js';
import { putIdempotent } from './put-idempotent.js';
import { refreshRotation } from './refresh-rotation.js';
import { ensureResourceAvailability } from './resource-availability.js';
import { useAfterFree } from './use-after-free.js';

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
