import type { Dataset, IdempotencyRecord } from '../domain/dataset.js';
import type { Journal } from './dataset-journal.js';
import type { RepositoryWriter } from './repository.js';

/** The status of a claim: a request with the key is being handled. */
const CLAIMED = 0;

type IdempotencyWrites = Pick<
  RepositoryWriter,
  'putIdempotency' | 'claimIdempotency' | 'settleIdempotency' | 'pruneExpiredIdempotency'
>;

/**
 * Idempotency records of a data set held in memory, on behalf of `owner`, the one repository
 * (so the one process) that holds this data set. A data set is made durable by one process at
 * a time (the JSON file), so a claim another owner left in it was left by a process that is
 * gone: that key is free at once, its lease notwithstanding. A claim without an owner (written
 * before owners were stamped) is held until its lease runs out, as before.
 *
 * @example
 * const writes = idempotencyWrites(() => store.data, journaled(undo), 'b6f1...');
 */
export function idempotencyWrites(
  data: () => Dataset,
  journal: Journal,
  owner: string,
): IdempotencyWrites {
  const { set, deleteWhere } = journal;
  return {
    async putIdempotency(record) {
      set(data().idempotency, record.scope, record);
    },
    async claimIdempotency(record, now) {
      const held = data().idempotency[record.scope];
      if (held !== undefined && isHeld(held, now, owner)) return held;
      set(data().idempotency, record.scope, { ...record, owner });
      return undefined;
    },
    async settleIdempotency(claim, record) {
      const held = data().idempotency[claim.scope];
      if (held !== undefined && !isClaim(held, claim, owner)) return false;
      set(data().idempotency, claim.scope, record);
      return true;
    },
    async pruneExpiredIdempotency(now) {
      deleteWhere(data().idempotency, (record) => Date.parse(record.expiresAt) <= now.getTime());
    },
  };
}

/** Live at `now`, and not a claim left by another owner (a previous process). */
function isHeld(record: IdempotencyRecord, now: Date, owner: string): boolean {
  if (Date.parse(record.expiresAt) <= now.getTime()) return false;
  return !(record.status === CLAIMED && record.owner !== undefined && record.owner !== owner);
}

/** Whether `held` is still `claim`, made by `owner`. */
function isClaim(held: IdempotencyRecord, claim: IdempotencyRecord, owner: string): boolean {
  return (
    held.status === CLAIMED &&
    held.owner === owner &&
    held.createdAt === claim.createdAt &&
    held.requestBody === claim.requestBody
  );
}
