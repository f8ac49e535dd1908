import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import {
  startCluster,
  type ThrowawayCluster,
} from '../../../scripts/postgres/throwaway-cluster.mjs';

/** A throwaway cluster of one test file, and fresh databases in it. */
export interface TestCluster {
  readonly cluster: ThrowawayCluster;
  /** Creates an empty database and returns its URL. */
  freshDatabase(): Promise<string>;
  /**
   * The URL of this file's reused database, emptied: every table but the migrations' truncated
   * and every sequence restarted, so the next open seeds it as new (much quicker than a
   * CREATE DATABASE per test). Close the previous test's repository first.
   */
  wipedDatabase(): Promise<string>;
}

// DELETE, not TRUNCATE: the tables of a test are tiny, and TRUNCATE makes new files for every
// table and index. Foreign keys are not checked meanwhile (replica role).
const WIPE = `SET session_replication_role = replica;
DO $$
DECLARE r record;
BEGIN
  FOR r IN SELECT tablename FROM pg_tables
            WHERE schemaname = 'public' AND tablename <> 'apikit_schema_migrations' LOOP
    EXECUTE format('DELETE FROM %I', r.tablename);
  END LOOP;
  FOR r IN SELECT sequencename FROM pg_sequences WHERE schemaname = 'public' LOOP
    EXECUTE format('ALTER SEQUENCE %I RESTART', r.sequencename);
  END LOOP;
END $$`;

async function run(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

let counter = 0;

/**
 * Starts a throwaway PostgreSQL cluster before the file's tests and removes it after them
 * (scripts/postgres/throwaway-cluster.mjs; Debian's postgresql package is installed when
 * missing). Each test takes a fresh database: nothing carries over.
 *
 * @example
 * const postgres = usePostgresCluster();
 * const url = await postgres.freshDatabase();
 */
export function usePostgresCluster(): TestCluster {
  let cluster: ThrowawayCluster | undefined;
  let reused: string | undefined;
  beforeAll(async () => {
    cluster = await startCluster();
  }, 120_000);
  afterAll(async () => {
    await cluster?.destroy();
  });
  return {
    get cluster() {
      if (cluster === undefined) throw new Error('the cluster is not started yet');
      return cluster;
    },
    async freshDatabase() {
      const running = this.cluster;
      const name = `apikit_test_${process.pid}_${++counter}`;
      await run(running.url, `CREATE DATABASE ${name}`);
      return running.urlOf(name);
    },
    async wipedDatabase() {
      if (reused === undefined) reused = await this.freshDatabase();
      else await run(reused, WIPE);
      return reused;
    },
  };
}
