import pg from 'pg';
import { createServer, type RunningServer } from '../../../reference-server/create-server.js';
import type { ServerOptions } from '../../../node-runtime/server-config.js';
import {
  startCluster,
  type ThrowawayCluster,
} from '../../../scripts/postgres/throwaway-cluster.mjs';
import { startRoundRobinBalancer, type RoundRobinBalancer } from './round-robin-balancer.js';

/** One signing secret for every instance: a token one of them issued is good on the others. */
export const SHARED_JWT_SECRET = 'multi-instance-secret-shared-by-every-instance-0123';

/** Reference servers sharing one PostgreSQL database, and a balancer in front of them. */
export interface PostgresInstances {
  readonly cluster: ThrowawayCluster;
  /** postgres://... of the database they share (fresh, seeded by the first to start). */
  readonly databaseUrl: string;
  readonly instances: readonly RunningServer[];
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
  /** More options of every instance (demo passwords, data, ...). */
  server?: ServerOptions;
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
  let balancer: RoundRobinBalancer | undefined;
  const close = async () => {
    await balancer?.close();
    await Promise.allSettled(started.map((instance) => instance.close()));
    if (own) await cluster.destroy();
  };
  let starts: Promise<RunningServer>[] = [];
  try {
    const databaseUrl = await createDatabase(cluster);
    starts = Array.from({ length: options.count ?? 3 }, () =>
      createServer({
        port: 0,
        rateLimit: 0,
        loginRateLimit: 0,
        jwtSecret: SHARED_JWT_SECRET,
        ...options.server,
        databaseUrl,
        databasePoolSize: options.poolSize ?? 5,
      }).then((instance) => {
        started.push(instance);
        return instance;
      }),
    );
    const instances = await Promise.all(starts);
    balancer = await startRoundRobinBalancer(instances.map((instance) => instance.url));
    return {
      cluster,
      databaseUrl,
      instances,
      apis: instances.map((instance) => `${instance.url}/api/v1`),
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
