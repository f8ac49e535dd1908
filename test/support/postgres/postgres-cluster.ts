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
      const admin = new pg.Client({ connectionString: running.url });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return running.urlOf(name);
    },
  };
}
