import pg from 'pg';
import { createServer, type RunningServer } from '../../../reference-server/create-server.js';
import type { ServerOptions } from '../../../node-runtime/server-config.js';
import {
  startCluster,
  type ThrowawayCluster,
} from '../../../scripts/postgres/throwaway-cluster.mjs';
import { startCliServer, type CliServer } from '../../durability/cli-server.js';
import { startRoundRobinBalancer, type RoundRobinBalancer } from './round-robin-balancer.js';

/** One signing secret for every instance: a token one of them issued is good on the others. */
export const SHARED_JWT_SECRET = 'multi-instance-secret-shared-by-every-instance-0123';

/** Reference servers sharing one PostgreSQL database, and a balancer in front of them. */
export interface PostgresInstances {
  readonly cluster: ThrowawayCluster;
  /** postgres://... of the database they share (fresh, seeded by the first to start). */
  readonly databaseUrl: string;
  /** The servers started in this process; none with `processes`. */
  readonly instances: readonly RunningServer[];
  /** The `apikit serve` child processes of `processes`; none otherwise. */
  readonly children: readonly CliServer[];
  /** `${url}/api/v1` of each instance, by index. */
  readonly apis: readonly string[];
  readonly balancer: RoundRobinBalancer;
  /** `${balancer.url}/api/v1` */
  readonly api: string;
  /** Closes the balancer, drains every instance, then removes the cluster if it made it. */
  close(): Promise<void>;
}

export interface PostgresInstancesOptions {
  /** How many reference servers (default 3). */
  count?: number;
  /** A running cluster to use (it is left running); by default a throwaway one of its own. */
  cluster?: ThrowawayCluster;
  /** PostgreSQL connections each instance keeps at most (default 5: 2 cores, shared). */
  poolSize?: number;
  /** More options of every instance (demo passwords, data, ...); not with `processes`. */
  server?: ServerOptions;
  /**
   * Each instance an `apikit serve` child process (the built CLI; `npm run build` first)
   * instead of a server in this process: separate event loops, nothing shared in memory.
   */
  processes?: boolean;
}

let databases = 0;

/** Creates an empty database in the cluster and returns its URL. */
export async function createDatabase(cluster: ThrowawayCluster): Promise<string> {
  const name = `apikit_multi_${process.pid}_${++databases}`;
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return cluster.urlOf(name);
}

/** `apikit serve --database-url` in a child process, the shared secret, limits off. */
function startChild(databaseUrl: string, poolSize: number): Promise<CliServer> {
  return startCliServer({
    dbFile: 'unused-with-a-database-url.json',
    env: { DATABASE_URL: databaseUrl, APIKIT_JWT_SECRET: SHARED_JWT_SECRET },
    args: ['--database-pool', String(poolSize)],
    startTimeoutMs: 60_000,
  });
}

/**
 * Starts `count` reference servers at once on one fresh database (the migrations' advisory lock
 * lets one of them migrate and seed; the others wait and find it done), each on its own port
 * and pool, all with the same JWT secret, rate limits off; and a round-robin balancer over
 * them. Everything started here is stopped by close(), also when a later step fails.
 *
 * @example
 * const multi = await startPostgresInstances({ count: 3 });
 * await fetch(`${multi.api}/roles`); // through the balancer
 * await fetch(`${multi.apis[2]}/roles`); // straight to the third instance
 * await multi.close();
 */
export async function startPostgresInstances(
  options: PostgresInstancesOptions = {},
): Promise<PostgresInstances> {
  const own = options.cluster === undefined;
  const cluster = options.cluster ?? (await startCluster());
  const started: RunningServer[] = [];
  const children: CliServer[] = [];
  let balancer: RoundRobinBalancer | undefined;
  const close = async () => {
    await balancer?.close();
    await Promise.allSettled([
      ...started.map((instance) => instance.close()),
      ...children.map((child) => child.kill('SIGTERM')),
    ]);
    if (own) await cluster.destroy();
  };
  let starts: Promise<RunningServer | CliServer>[] = [];
  try {
    const databaseUrl = await createDatabase(cluster);
    const poolSize = options.poolSize ?? 5;
    starts = Array.from({ length: options.count ?? 3 }, () =>
      options.processes
        ? startChild(databaseUrl, poolSize).then((child) => {
            children.push(child);
            return child;
          })
        : createServer({
            port: 0,
            rateLimit: 0,
            loginRateLimit: 0,
            jwtSecret: SHARED_JWT_SECRET,
            ...options.server,
            databaseUrl,
            databasePoolSize: poolSize,
          }).then((instance) => {
            started.push(instance);
            return instance;
          }),
    );
    const all = await Promise.all(starts);
    const urls = all.map((instance) => instance.url);
    balancer = await startRoundRobinBalancer(urls);
    return {
      cluster,
      databaseUrl,
      instances: options.processes ? [] : (all as RunningServer[]),
      children: options.processes ? (all as CliServer[]) : [],
      apis: urls.map((url) => `${url}/api/v1`),
      balancer,
      api: `${balancer.url}/api/v1`,
      close,
    };
  } catch (error) {
    // Every start settled first: one still under way would outlive close() otherwise.
    await Promise.allSettled(starts);
    await close();
    throw error;
  }
}
