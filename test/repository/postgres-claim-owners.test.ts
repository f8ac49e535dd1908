import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import type { IdempotencyRecord } from '../../core/domain/dataset.js';
import type { Repository } from '../../core/repository/repository.js';
import { CLAIM_OWNER_LOCK } from '../../reference-server/store/postgres/migrate.js';
import { openPostgresRepository } from '../../reference-server/store/postgres/open-postgres-repository.js';
import { testDataset } from '../support/domain/test-dataset.js';
import { usePostgresCluster } from '../support/postgres/postgres-cluster.js';

// Decision 0109: an instance holds a lock on its number for as long as its session lives; a
// claim of an instance whose session is gone is free at once, and that instance's answer to it
// is then refused (its write rolls back), so that nothing runs twice.
const postgres = usePostgresCluster();

const NOW = new Date('2026-06-01T00:00:00.000Z');
const claim = (scope: string, n = 1): IdempotencyRecord => ({
  scope,
  requestBody: `{"n":${n}}`,
  status: 0,
  headers: {},
  body: null,
  createdAt: NOW.toISOString(),
  expiresAt: '2026-06-01T00:01:00.000Z',
});
const answer = (scope: string): IdempotencyRecord => ({
  ...claim(scope),
  status: 201,
  body: '{"id":1}',
  expiresAt: '2026-06-02T00:00:00.000Z',
});

let opened: Repository[] = [];
let admin: pg.Client | undefined;

afterEach(async () => {
  await Promise.all(opened.map((repository) => repository.close()));
  opened = [];
  await admin?.end();
  admin = undefined;
});

async function twoInstances(): Promise<{ a: Repository; b: Repository; url: string }> {
  const url = await postgres.freshDatabase();
  const open = () =>
    openPostgresRepository({ connectionString: url, seed: async () => testDataset(), poolSize: 2 });
  const [a, b] = await Promise.all([open(), open()]);
  opened = [a.repository, b.repository];
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
  return { a: a.repository, b: b.repository, url };
}

/** The owner numbers whose lock a session holds, sorted. */
async function heldOwners(): Promise<number[]> {
  const { rows } = await admin!.query<{ objid: number }>(
    `SELECT objid::integer AS objid FROM pg_locks
      WHERE locktype = 'advisory' AND classid::bigint = $1 AND granted AND mode = 'ExclusiveLock'`,
    [CLAIM_OWNER_LOCK],
  );
  return rows.map((row) => row.objid).sort((x, y) => x - y);
}

/** The backends holding an owner lock. */
async function holderPids(): Promise<number[]> {
  const { rows } = await admin!.query<{ pid: number }>(
    `SELECT pid FROM pg_locks
      WHERE locktype = 'advisory' AND classid::bigint = $1 AND granted AND mode = 'ExclusiveLock'`,
    [CLAIM_OWNER_LOCK],
  );
  return rows.map((row) => row.pid);
}

/** Polls (every 20 ms, 5 s at most) until `count` owner locks are held; answers them. */
async function ownersHeld(count: number): Promise<number[]> {
  let owners = await heldOwners();
  for (let poll = 0; poll < 250 && owners.length !== count; poll += 1) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    owners = await heldOwners();
  }
  expect(owners).toHaveLength(count);
  return owners;
}

describe('claim owners on PostgreSQL', () => {
  it('holds a live instance`s claim; frees it at once when its session ends, and refuses its answer', async () => {
    const { a, b } = await twoInstances();
    expect(await heldOwners()).toHaveLength(2);
    expect(await a.transact((tx) => tx.claimIdempotency(claim('k'), NOW))).toBe(undefined);
    const held = await b.transact((tx) => tx.claimIdempotency(claim('k', 2), NOW));
    expect(held).toMatchObject({ status: 0, requestBody: '{"n":1}' });

    // As when a's process is killed: its claims session ends (the pool's with it, here only
    // the lock's, so that a can still try to answer).
    await admin!.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE application_name = 'apikit claims' AND pid IN (
          SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid::bigint = $1
             AND objid::integer = $2)`,
      [CLAIM_OWNER_LOCK, Number(held!.owner)],
    );
    // The backend exits a moment after the signal; a takes its lock again after a second.
    await ownersHeld(1);
    expect(await b.transact((tx) => tx.claimIdempotency(claim('k', 2), NOW))).toBe(undefined);
    expect(await a.transact((tx) => tx.settleIdempotency(claim('k'), answer('k')))).toBe(false);
    expect(await b.idempotency('k')).toMatchObject({ status: 0, requestBody: '{"n":2}' });
  });

  it('takes its lock again on a new session once the database dropped it', async () => {
    const { a, b } = await twoInstances();
    const [first] = await heldOwners();
    const before = await holderPids();
    await admin!.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'apikit claims'`,
    );
    // Retaken within about a second, by new sessions (polled by their pids: both may come back
    // between two polls, so a moment with one lock held need not be seen).
    let pids = await holderPids();
    for (
      let poll = 0;
      poll < 250 && (pids.length !== 2 || pids.some((pid) => before.includes(pid)));
      poll += 1
    ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      pids = await holderPids();
    }
    expect(pids.filter((pid) => !before.includes(pid))).toHaveLength(2);
    const owners = await heldOwners();
    expect(owners).toContain(first);
    // And its claims are held again.
    expect(await a.transact((tx) => tx.claimIdempotency(claim('k2'), NOW))).toBe(undefined);
    expect(await b.transact((tx) => tx.claimIdempotency(claim('k2', 2), NOW))).toMatchObject({
      requestBody: '{"n":1}',
    });
  });

  it('gives its number up on close: its claims are free to the others', async () => {
    const { a, b } = await twoInstances();
    expect(await a.transact((tx) => tx.claimIdempotency(claim('k'), NOW))).toBe(undefined);
    await a.close();
    opened = [b];
    expect(await heldOwners()).toHaveLength(1);
    expect(await b.transact((tx) => tx.claimIdempotency(claim('k', 2), NOW))).toBe(undefined);
  });
});
