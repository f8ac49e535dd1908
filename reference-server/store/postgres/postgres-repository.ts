import type pg from 'pg';
import { StoreUnavailableError } from '../../../core/domain/store.js';
import type { Repository } from '../../../core/repository/repository.js';
import {
  isLostConnection,
  isRetryable,
  isUnavailable,
  isUniqueViolation,
  toStoreError,
  tooManyConflicts,
} from './postgres-errors.js';
import { postgresReader, type Query } from './postgres-reader.js';
import { housekeeper, type PendingPrunes } from './postgres-housekeeping.js';
import { postgresWriter } from './postgres-writer.js';
import type { ClaimOwner } from './claim-owner.js';

/**
 * A transaction's first statement. Under SERIALIZABLE a sequential scan locks the whole table
 * for conflict detection, and on a small table (a new database, the demo data) the planner
 * prefers one even for a lookup by key: every create then conflicted with every other
 * (measured: 32 concurrent creates, 3 runs each and 2% answered 503). Index scans lock only
 * the pages they read, as PostgreSQL's documentation advises for serializable workloads.
 */
const BEGIN_SERIALIZABLE = 'BEGIN ISOLATION LEVEL SERIALIZABLE; SET LOCAL enable_seqscan = off';

/** Runs that may end in a unique violation: a race ends in one; more is a missing check. */
const UNIQUE_RUNS = 3;

/** How transactions are retried, and how often they prune. */
export interface TransactionOptions {
  /** Runs of one transaction at most (serialization failures, deadlocks, unique races). */
  attempts?: number;
  /** The longest pause before a retry; pauses grow from 2 ms, with full jitter. */
  maxDelayMs?: number;
  /** Expired refresh-token families and idempotency records are deleted at most this often. */
  pruneIntervalMs?: number;
}

/**
 * The repository over a PostgreSQL pool (its schema migrated: see openPostgresRepository).
 * `transact` runs SERIALIZABLE and runs `work` again on a serialization failure (40001), a
 * deadlock (40P01) or a unique or exclusion violation (23505, 23P01: the retried work sees the
 * row that won, and the domain answers 409 itself; a third one in a row is a missing check and
 * is rethrown), a bounded number of times with jittered backoff; also once
 * more on a connection lost before COMMIT was sent. `snapshot` is REPEATABLE READ READ ONLY;
 * single reads are pooled statements. An unreachable database rejects with
 * StoreUnavailableError (503). With a `claimOwner`, Idempotency-Key claims name this
 * instance, and other instances free them at once should it die (decision 0109); `close` ends
 * its session after the pool's.
 *
 * @example
 * const repository = createPostgresRepository(createPostgresPool({ connectionString }));
 */
export function createPostgresRepository(
  pool: pg.Pool,
  options: TransactionOptions = {},
  claimOwner?: ClaimOwner,
): Repository {
  const attempts = options.attempts ?? 20;
  const maxDelayMs = options.maxDelayMs ?? 100;
  let closed = false;
  let ending: Promise<void> | undefined;

  const pooled: Query = async (text, values) => {
    try {
      return (await pool.query(text, values)).rows;
    } catch (error) {
      if (!isLostConnection(error) || closed) throw toStoreError(error);
      // A connection the database dropped while idle (a restart): once more on a fresh one.
      try {
        return (await pool.query(text, values)).rows;
      } catch (again) {
        throw toStoreError(again);
      }
    }
  };

  const prune = housekeeper(pooled, options.pruneIntervalMs ?? 5_000);

  function refuseWhenClosed(): void {
    if (closed) throw new StoreUnavailableError('store is closed');
  }

  return {
    ...postgresReader(pooled),
    async transact(work) {
      refuseWhenClosed();
      let reconnected = false;
      let uniqueRuns = 0;
      for (let attempt = 1; ; attempt += 1) {
        const pending: PendingPrunes = {};
        const run = await runOnce(pool, BEGIN_SERIALIZABLE, (query, count) =>
          work(postgresWriter(query, count, pending, claimOwner?.id ?? null)),
        );
        if (run.ok) {
          await prune(pending);
          return run.value;
        }
        const { error, dbError, committing } = run;
        if (dbError !== undefined && isRetryable(dbError)) {
          if (isUniqueViolation(dbError) && (uniqueRuns += 1) >= UNIQUE_RUNS) throw dbError;
          if (attempt >= attempts) throw tooManyConflicts(dbError, attempts);
          await pause(attempt, maxDelayMs);
          continue;
        }
        // Lost before COMMIT was sent: nothing was written; run it once more. During COMMIT
        // the outcome is unknown, so the caller hears 503 rather than a second run.
        if (isLostConnection(dbError) && !committing && !reconnected) {
          reconnected = true;
          continue;
        }
        throw toStoreError(dbError ?? error);
      }
    },
    async snapshot(work) {
      refuseWhenClosed();
      for (let attempt = 1; ; attempt += 1) {
        const run = await runOnce(
          pool,
          'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
          (query) => work(postgresReader(query)),
        );
        if (run.ok) return run.value;
        if (attempt === 1 && isLostConnection(run.dbError)) continue;
        throw toStoreError(run.dbError ?? run.error);
      }
    },
    close() {
      closed = true;
      ending ??= pool.end().finally(() => claimOwner?.close());
      return ending;
    },
  };
}

type Run<T> =
  { ok: true; value: T } | { ok: false; error: unknown; dbError: unknown; committing: boolean };

/**
 * One run of a transaction on a connection of its own. What the database said first is kept
 * apart from what `work` threw: after a failed statement the rest of the transaction fails
 * too (25P02), and the domain may have turned the first failure into an error of its own.
 */
async function runOnce<T>(
  pool: pg.Pool,
  begin: string,
  work: (query: Query, count: (text: string, values: unknown[]) => Promise<number>) => Promise<T>,
): Promise<Run<T>> {
  let dbError: unknown;
  let broken: Error | undefined;
  let committing = false;
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    return { ok: false, error, dbError: error, committing };
  }
  // A connection lost between statements would otherwise be an unhandled 'error' event.
  const onError = (error: Error) => (dbError ??= error);
  client.on('error', onError);
  const run = async (text: string, values?: unknown[]) => {
    try {
      return await client.query(text, values);
    } catch (error) {
      dbError ??= error;
      throw error;
    }
  };
  try {
    await run(begin);
    const value = await work(
      async (text, values) => (await run(text, values)).rows,
      async (text, values) => (await run(text, values)).rowCount ?? 0,
    );
    committing = true;
    await run('COMMIT');
    return { ok: true, value };
  } catch (error) {
    // A failed ROLLBACK (the connection is gone) changes no answer: nothing was committed.
    if (!committing || dbError === undefined)
      await client.query('ROLLBACK').catch((failed: Error) => (broken = failed));
    return { ok: false, error, dbError, committing };
  } finally {
    client.off('error', onError);
    // A connection that failed is closed rather than handed to the next transaction.
    const lost = dbError !== undefined && isUnavailable(dbError) ? (dbError as Error) : broken;
    client.release(lost);
  }
}

/** Full jitter: a random pause up to 2 ms doubled per attempt, at most `maxDelayMs`. */
function pause(attempt: number, maxDelayMs: number): Promise<void> {
  const ceiling = Math.min(maxDelayMs, 2 * 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
}
