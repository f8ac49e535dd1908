import type { Query } from './postgres-reader.js';

/** What a transaction asked to prune, by the latest `now` it gave. */
export interface PendingPrunes {
  families?: Date;
  idempotency?: Date;
  /** Users were written: the range counts' rows may be folded (migration 0003). */
  ranges?: Date;
}

type PruneKind = keyof PendingPrunes;

const PRUNES: Record<PruneKind, (query: Query, at: number) => Promise<unknown>> = {
  // A family goes when its every token expired (reuse detection needs the others).
  families: (query, at) =>
    query(
      `DELETE FROM refresh_tokens WHERE family_id IN (
         SELECT family_id FROM refresh_tokens GROUP BY family_id
         HAVING max(expires_at_ms) <= $1)`,
      [at],
    ),
  idempotency: (query, at) => query('DELETE FROM idempotency WHERE expires_at_ms <= $1', [at]),
  ranges: (query) => query('SELECT apikit_fold_user_ranges()'),
};

/**
 * Pruning (and folding the range counts' rows) is housekeeping, not part of the transaction
 * that asks for it: run inside it, under SERIALIZABLE, the scan of every refresh token made
 * each login conflict with every other (measured: 37 logins/s, a fifth of them 503, against
 * 1,039/s without). So a transaction only notes what to prune; once it committed, the
 * repository deletes what expired by then (or folds) in a statement of its own (READ
 * COMMITTED), at most once per `intervalMs` of the caller's clock per kind (a clock that moves
 * back prunes again). Expired records may so outlive their expiry by that much, as they
 * outlive it between two writes in memory: every reader judges expiry itself.
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
    for (const kind of Object.keys(PRUNES) as PruneKind[]) {
      const at = pending[kind]?.getTime();
      const previous = last[kind];
      if (at === undefined) continue;
      if (previous !== undefined && at >= previous && at - previous < intervalMs) continue;
      last[kind] = at;
      try {
        await PRUNES[kind](query, at);
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
