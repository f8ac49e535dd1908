import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { login } from '../durability/api-calls.js';
import { startCliServer, type CliServer } from '../durability/cli-server.js';
import { describeTally, runCrashRounds } from '../durability/keyed-crash-rounds.js';
import { usePostgresCluster } from '../support/postgres/postgres-cluster.js';
import {
  startRoundRobinBalancer,
  type RoundRobinBalancer,
} from '../support/postgres/round-robin-balancer.js';

/*
 * Issue 31, item 3 (decision 0109) on PostgreSQL: keyed creates of orders and users under
 * SIGKILL, first of the one instance (started again on the same database before the retries),
 * then of one of two instances behind the round-robin test balancer (the retries, through the
 * balancer, find the survivor while the other is dead; then it is started again). No key may
 * have created twice or nothing, and none may wait out a claim's 60 s lease: a dead
 * instance's claims are free as soon as PostgreSQL ends its session.
 */

const postgres = usePostgresCluster();

const PASSWORD = 'keyed-crash-admin-password';
const env = (databaseUrl: string) => ({
  DATABASE_URL: databaseUrl,
  APIKIT_ADMIN_PASSWORD: PASSWORD,
  APIKIT_USER_PASSWORD: 'keyed-crash-user-password',
  APIKIT_JWT_SECRET: 'keyed-crash-secret-keyed-crash-secret-keyed-crash-0123',
});

let servers: CliServer[] = [];
let balancer: RoundRobinBalancer | undefined;
let db: pg.Client | undefined;

afterEach(async () => {
  await db?.end();
  db = undefined;
  await balancer?.close();
  balancer = undefined;
  await Promise.all(servers.map((server) => server.kill('SIGKILL')));
  servers = [];
});

/** `apikit serve --database-url` as a child process (the built CLI: `npm run build` first). */
function starter(databaseUrl: string): () => Promise<CliServer> {
  return () =>
    startCliServer({
      dbFile: 'unused-with-a-database-url.json',
      env: env(databaseUrl),
      args: ['--data', 'empty', '--database-pool', '5'],
      startTimeoutMs: 60_000,
    });
}

/**
 * Claims in the database a moment after a kill (what the survivor had in flight has answered
 * by then): those of the requests the kill cut off.
 */
async function claimsLeftIn(databaseUrl: string): Promise<number> {
  if (db === undefined) {
    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
  }
  await new Promise((resolve) => setTimeout(resolve, 200));
  const { rows } = await db.query<{ n: number }>(
    'SELECT count(*)::integer AS n FROM idempotency WHERE status = 0',
  );
  return rows[0]!.n;
}

function expectExactlyOnce(tally: Awaited<ReturnType<typeof runCrashRounds>>): void {
  expect(tally.cut, 'the kills cut requests off').toBeGreaterThan(0);
  expect(tally.claimsLeft, 'and left their claims held').toBeGreaterThan(0);
  expect(tally.unanswered).toEqual([]);
  expect(tally.verdict).toEqual({ duplicates: [], lost: [], mismatched: [] });
  expect(tally.replaysDiffering).toEqual([]);
}

describe('Idempotency-Key across SIGKILL on PostgreSQL', () => {
  it('one instance, started again on the same database: every keyed create exactly once', async () => {
    const databaseUrl = await postgres.freshDatabase();
    const start = starter(databaseUrl);
    servers = [await start()];
    const token = await login(servers[0]!.api, 'admin@example.com', PASSWORD);
    const tally = await runCrashRounds({
      token,
      tag: 'pg1',
      rounds: 3,
      perRound: 240,
      target: {
        api: () => servers[0]!.api,
        kill: () => servers[0]!.kill('SIGKILL'),
        claimsLeft: () => claimsLeftIn(databaseUrl),
        afterKill: async () => {
          servers = [await start()];
        },
        afterRetries: async () => undefined,
      },
    });
    console.info(describeTally('PostgreSQL, one instance', tally));
    expectExactlyOnce(tally);
    // Its claims went with its session: no retry met one still held.
    expect(tally.retriedInUse).toBe(0);
  }, 240_000);

  it('two instances behind a balancer, one killed: the survivor takes its keys at once', async () => {
    const databaseUrl = await postgres.freshDatabase();
    const start = starter(databaseUrl);
    servers = await Promise.all([start(), start()]);
    balancer = await startRoundRobinBalancer(servers.map((server) => server.url));
    const token = await login(servers[0]!.api, 'admin@example.com', PASSWORD);
    const victim = (round: number) => (round - 1) % 2;
    const tally = await runCrashRounds({
      token,
      tag: 'pg2',
      rounds: 3,
      perRound: 240,
      // Twice the clients: half of what is in flight at a kill is on the survivor.
      concurrency: 32,
      target: {
        api: () => `${balancer!.url}/api/v1`,
        kill: (round) => servers[victim(round)]!.kill('SIGKILL'),
        claimsLeft: () => claimsLeftIn(databaseUrl),
        afterKill: async () => undefined,
        afterRetries: async (round) => {
          servers[victim(round)] = await start();
          await balancer?.close();
          balancer = await startRoundRobinBalancer(servers.map((server) => server.url));
        },
      },
    });
    console.info(describeTally('PostgreSQL, two instances behind a balancer', tally));
    expectExactlyOnce(tally);
    // A retry may reach the survivor before PostgreSQL has ended the dead one's session (it
    // notices the closed socket within milliseconds): a few 409s at most, never a lease's wait.
    expect(tally.retriedInUse).toBeLessThan(tally.cut + 16);
  }, 240_000);
});
