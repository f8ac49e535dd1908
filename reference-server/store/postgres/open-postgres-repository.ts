import type { PoolClient } from 'pg';
import type { Dataset } from '../../../core/domain/dataset.js';
import type { Repository } from '../../../core/repository/repository.js';
import { holdClaimOwner, type ClaimOwner } from './claim-owner.js';
import { migrate, withSetupLock } from './migrate.js';
import { toStoreError } from './postgres-errors.js';
import { createPostgresPool, type PostgresPoolOptions } from './postgres-pool.js';
import { createPostgresRepository, type TransactionOptions } from './postgres-repository.js';
import { loadDataset } from './postgres-bulk.js';
import { postgresWindowCounter } from './postgres-window-counter.js';
import type { WindowCounter } from '../../http/window-counter.js';

export interface OpenPostgresOptions extends PostgresPoolOptions {
  /** The data set of a new database (demo, empty or your data), built only when needed. */
  seed: () => Promise<Dataset>;
  transactions?: TransactionOptions;
}

export interface OpenedPostgres {
  repository: Repository;
  /** Whether this instance seeded the database (it was new); false when another had. */
  seeded: boolean;
  /** The migrations this instance applied (empty when the schema was up to date). */
  migrated: number[];
  /** A rate-limit policy's counter in this database, shared by every instance (0086). */
  windowCounter(policy: string, windowMs: number): WindowCounter;
  /** Resolves when the database answers a trivial query (readiness, decision 0111). */
  ping(): Promise<void>;
}

/**
 * Connects, migrates the schema and seeds a new database, then returns the repository.
 * Instances starting at once take turns under one advisory lock: the first migrates and seeds,
 * the others wait, find both done and leave the data alone. Then the instance takes its number
 * as a holder of Idempotency-Key claims, on a session of its own (`claim-owner.ts`). A
 * database that cannot be reached rejects with StoreUnavailableError.
 *
 * @example
 * const { repository, seeded } = await openPostgresRepository({
 *   connectionString: 'postgres://apikit@db/apikit',
 *   seed: () => buildDemoDataset(),
 * });
 */
export async function openPostgresRepository(
  options: OpenPostgresOptions,
): Promise<OpenedPostgres> {
  const pool = createPostgresPool(options);
  let claimOwner: ClaimOwner | undefined;
  try {
    const client = await pool.connect().catch((error: unknown) => {
      throw toStoreError(error);
    });
    // Should the database go away while we hold this connection: an error, not a crash.
    client.on('error', () => undefined);
    let setup: { seeded: boolean; migrated: number[] };
    try {
      setup = await withSetupLock(client, async () => {
        const migrated = await migrate(client);
        const { rowCount } = await client.query('SELECT 1 FROM apikit_meta');
        if (rowCount !== 0) return { seeded: false, migrated };
        await seedOn(client, await options.seed());
        return { seeded: true, migrated };
      });
    } finally {
      client.release();
    }
    claimOwner = await holdClaimOwner(options);
    const repository = createPostgresRepository(pool, options.transactions, claimOwner);
    // Fresh statistics and visibility maps for the planner (index-only counts), not left to
    // autovacuum's next round: outside the lock, another instance may serve meanwhile. The
    // counts too: the load's batches left a dead version of each of their rows per batch
    // (1,000,000 users: 200 batches, a scan of the totals 1.1 ms instead of 0.05).
    if (setup.seeded) {
      await pool.query(
        'VACUUM (ANALYZE) users, orders, order_items, apikit_user_counts, apikit_user_ranges',
      );
    }
    return {
      repository,
      ...setup,
      windowCounter: (policy, windowMs) => postgresWindowCounter(pool, policy, windowMs),
      ping: async () => {
        await pool.query('SELECT 1');
      },
    };
  } catch (error) {
    await pool.end().catch(() => undefined);
    await claimOwner?.close();
    throw toStoreError(error);
  }
}

/** Loads the seed on the connection holding the setup lock (a pool of one connection works). */
async function seedOn(client: PoolClient, dataset: Dataset): Promise<void> {
  await client.query('BEGIN');
  try {
    await loadDataset(async (text, values) => (await client.query(text, values)).rows, dataset);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
