import type { Query } from './postgres-reader.js';

/** What a transaction asked to prune, by the latest `now` it gave. */
export interface PendingPrunes {
  families?: Date;
  idempotency?: Date;
}

type PruneKind = keyof PendingPrunes;

const PRUNE_SQL: Record<PruneKind, string> = {
  // A family goes when its every token expired (reuse detection needs the others).
  families: `DELETE FROM refresh_tokens WHERE family_id IN (
               SELECT family_id FROM refresh_tokens GROUP BY family_id
               HAVING max(expires_at_ms) <= $1)`,
  idempotency: 'DELETE FROM idempotency WHERE expires_at_ms <= $1',
};

/**
 * Pruning is housekeeping, not part of the transaction that asks for it: run inside it, under
 * SERIALIZABLE, the scan of every refresh token made each login conflict with every other
 * (measured: 37 logins/s, a fifth of them 503, against 1,039/s without). So a transaction only
 * notes what to prune; once it committed, the repository deletes what expired by then in a
 * statement of its own (READ COMMITTED), at most once per `intervalMs` of the caller's clock per
 * kind (a clock that moves back prunes again). Expired records may so outlive their expiry by
 * that much, as they outlive it between two writes in memory: every reader judges expiry itself.
 *
 * @example
 * const prune = housekeeper(pooledQuery, 5_000);
 * await prune({ families: now });
 */
export function housekeeper(
  query: Query,
  intervalMs: number,
): (pending: PendingPrunes) => Promise<void> {
  const last: Partial<Record<PruneKind, number>> = {};
  return async (pending) => {
    for (const kind of Object.keys(PRUNE_SQL) as PruneKind[]) {
      const at = pending[kind]?.getTime();
      const previous = last[kind];
      if (at === undefined) continue;
      if (previous !== undefined && at >= previous && at - previous < intervalMs) continue;
      last[kind] = at;
      try {
        await query(PRUNE_SQL[kind], [at]);
      } catch {
        // The transaction committed: its answer stands. The next one prunes again.
        last[kind] = previous;
      }
    }
  };
}

/** Notes a prune in `pending`, keeping the latest `now` of the transaction. */
export function notePrune(pending: PendingPrunes, kind: PruneKind, now: Date): void {
  const noted = pending[kind];
  if (noted === undefined || now.getTime() > noted.getTime()) pending[kind] = now;
}
