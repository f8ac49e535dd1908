import type { ClientBase } from 'pg';
import { initialSchema } from './migrations/0001-initial-schema.js';
import { rateLimitWindows } from './migrations/0002-rate-limit-windows.js';
import { userRanges } from './migrations/0003-user-ranges.js';
import { claimOwners } from './migrations/0004-claim-owners.js';

/** One step of the schema: applied once, in version order, in a transaction of its own. */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Every migration, oldest first. A new one is appended here; an applied one never changes. */
export const migrations: readonly Migration[] = [
  { version: 1, name: 'initial-schema', sql: initialSchema },
  { version: 2, name: 'rate-limit-windows', sql: rateLimitWindows },
  { version: 3, name: 'user-ranges', sql: userRanges },
  { version: 4, name: 'claim-owners', sql: claimOwners },
];

/**
 * The advisory lock (two-key form) under which instances migrate and seed one at a time; the
 * first key spells "apik". The schema's functions use (APIKIT_LOCK, 1) for ids and
 * (APIKIT_LOCK, 2) for folding the range counts (migration 0003).
 */
export const APIKIT_LOCK = 1634757483;
/** First key of the locks (CLAIM_OWNER_LOCK, n) that instances hold on their number (0004). */
export const CLAIM_OWNER_LOCK = APIKIT_LOCK + 1;
const SETUP_LOCK = 0;

/**
 * Applies the migrations the database lacks. Several instances starting at once are safe: the
 * caller holds {@link withSetupLock}, so the second one waits, then finds nothing to do.
 *
 * @example
 * await withSetupLock(client, () => migrate(client));
 */
export async function migrate(client: ClientBase): Promise<number[]> {
  await client.query(`CREATE TABLE IF NOT EXISTS apikit_schema_migrations (
    version integer PRIMARY KEY,
    name text NOT NULL,
    applied_at timestamptz NOT NULL DEFAULT now()
  )`);
  const { rows } = await client.query<{ version: number }>(
    'SELECT version FROM apikit_schema_migrations',
  );
  const applied = new Set(rows.map((row) => row.version));
  const done: number[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    await client.query('BEGIN');
    try {
      await client.query(migration.sql);
      await client.query('INSERT INTO apikit_schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw new Error(`migration ${migration.version} (${migration.name}) failed`, {
        cause: error,
      });
    }
    done.push(migration.version);
  }
  return done;
}

/**
 * Runs `work` holding the session-level setup lock of this database: one instance at a time
 * migrates and seeds; the others wait and then see its work. The lock goes with the session
 * too, should this process die holding it.
 */
export async function withSetupLock<T>(client: ClientBase, work: () => Promise<T>): Promise<T> {
  await client.query('SELECT pg_advisory_lock($1, $2)', [APIKIT_LOCK, SETUP_LOCK]);
  try {
    return await work();
  } finally {
    await client.query('SELECT pg_advisory_unlock($1, $2)', [APIKIT_LOCK, SETUP_LOCK]);
  }
}
