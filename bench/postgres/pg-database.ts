/**
 * The PostgreSQL subject's database (decision 0088): a throwaway cluster
 * (scripts/postgres/throwaway-cluster.mjs, the one the tests use: fsync off, synchronous_commit
 * on) and one database per size, seeded through the repository's own bulk load
 * (openPostgresRepository: migrations, loadDataset, VACUUM ANALYZE) with the same users the
 * JSON-file subject holds (bench/seed-store.ts).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import type { Dataset } from '../../core/domain/dataset.js';
import { openPostgresRepository } from '../../reference-server/store/postgres/open-postgres-repository.js';
import type { ThrowawayCluster } from '../../scripts/postgres/throwaway-cluster.mjs';
import { REPO_ROOT } from '../repo-root.js';
import { benchDataset } from '../seed-store.js';

type ClusterModule = typeof import('../../scripts/postgres/throwaway-cluster.mjs');

/**
 * Starts a throwaway cluster (installing Debian's postgresql package when root and missing).
 * Loaded from the repository's scripts/ at run time: dist/ does not carry the .mjs.
 *
 * @example
 * const cluster = await startBenchCluster();
 * await cluster.destroy();
 */
export async function startBenchCluster(
  settings: Record<string, string> = {},
): Promise<ThrowawayCluster> {
  const file = join(REPO_ROOT, 'scripts/postgres/throwaway-cluster.mjs');
  const { startCluster } = (await import(pathToFileURL(file).href)) as ClusterModule;
  return startCluster({ settings });
}

/** One statement on a connection of its own (CREATE DATABASE, a size check). */
export async function runSql<T extends pg.QueryResultRow = pg.QueryResultRow>(
  url: string,
  sql: string,
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

/** A seeded database: its URL, its users, how long the seed took and how large it is. */
export interface SeededDatabase {
  url: string;
  users: number;
  seedSeconds: number;
  sizeMb: number;
}

/**
 * Creates database `bench_<users>` and seeds it with the demo data grown to `users` users
 * (generated users carry the demo user's scrypt hash, as in the file store). Timed from the
 * empty database to the end of VACUUM ANALYZE; the data set is built before the clock starts.
 *
 * @example
 * const db = await seedDatabase(cluster, demo, 100_000); // db.url, db.seedSeconds
 */
export async function seedDatabase(
  cluster: ThrowawayCluster,
  demo: Dataset,
  users: number,
): Promise<SeededDatabase> {
  const name = `bench_${users}`;
  await runSql(cluster.url, `DROP DATABASE IF EXISTS ${name}`);
  await runSql(cluster.url, `CREATE DATABASE ${name}`);
  const url = cluster.urlOf(name);
  const dataset = benchDataset(demo, users);
  const started = performance.now();
  const { repository, seeded } = await openPostgresRepository({
    connectionString: url,
    poolSize: 2,
    seed: () => Promise.resolve(dataset),
  });
  await repository.close();
  const seedSeconds = (performance.now() - started) / 1000;
  if (!seeded) throw new Error(`database ${name} was not seeded`);
  const [size] = await runSql<{ bytes: string }>(
    url,
    `SELECT pg_database_size(current_database()) AS bytes`,
  );
  return { url, users, seedSeconds, sizeMb: Number(size?.bytes ?? 0) / 1024 / 1024 };
}
