import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Dataset, UserStatus } from '../../core/domain/dataset.js';
import { createDatasetRepository } from '../../core/repository/dataset-repository.js';
import type { Repository, RepositoryWriter, UserSlice } from '../../core/repository/repository.js';
import { migrate } from '../../reference-server/store/postgres/migrate.js';
import { openPostgresRepository } from '../../reference-server/store/postgres/open-postgres-repository.js';
import { DEEP_PAGE_FROM } from '../../reference-server/store/postgres/postgres-reader.js';
import { MemoryStore } from '../support/domain/memory-store.js';
import { testDataset, userRecord } from '../support/domain/test-dataset.js';
import { usePostgresCluster } from '../support/postgres/postgres-cluster.js';

// A deep page of the id order is placed through the counts of users per range of ids
// (migration 0003, decision 0093) rather than by walking the index up to its offset. These
// tests hold it to the in-memory repository's answer for the same data, across range
// boundaries, gaps, far-away ids, every status filter and both directions, before and after
// writes that move users between the counts.
const postgres = usePostgresCluster();

const STATUSES: readonly UserStatus[] = ['ACTIVE', 'INACTIVE', 'BLOCKED'];

/** About 38,600 users: ids up to 45,000 with every seventh missing, and a few far away. */
function sparseDataset(): Dataset {
  const dataset = testDataset();
  const add = (id: number) => {
    dataset.users[id] = userRecord(id, { status: STATUSES[(id * 7919) % 3] });
  };
  for (let id = 5; id <= 45_000; id += 1) if (id % 7 !== 3) add(id);
  for (let id = 1_000_000; id < 1_000_040; id += 1) add(id);
  add(5_000_000);
  dataset.counters.users = 5_000_000;
  return dataset;
}

/** Users that change counts: a run deleted across a range boundary, statuses changed, creates. */
async function write(repository: Repository): Promise<void> {
  await repository.transact(async (tx) => {
    for (let id = 16_300; id <= 16_500; id += 1) if (await tx.user(id)) await tx.deleteUser(id);
    for (let id = 30_000; id <= 30_300; id += 1) {
      const user = await tx.user(id);
      if (user) await tx.putUser({ ...user, status: 'BLOCKED' });
    }
    for (let n = 0; n < 50; n += 1) await tx.putUser(userRecord(await tx.nextId('users')));
    await tx.reserveId('users', 40_000_000);
    await tx.putUser(userRecord(40_000_000, { status: 'INACTIVE' }));
  });
}

function slices(total: number): UserSlice[] {
  const offsets = [
    0,
    DEEP_PAGE_FROM - 1,
    DEEP_PAGE_FROM,
    16_383,
    16_384,
    16_385,
    20_000,
    32_768,
    total - 41,
    total - 1,
    total,
    total + 5,
  ];
  const sorts: UserSlice['sort'][] = [
    [],
    [{ field: 'id', direction: 'asc' }],
    [{ field: 'id', direction: 'desc' }],
    [
      { field: 'id', direction: 'desc' },
      { field: 'name', direction: 'asc' },
    ],
  ];
  return offsets.flatMap((offset) =>
    sorts.flatMap((sort) =>
      [undefined, ...STATUSES].flatMap((status) =>
        [1, 20, 100].map((limit) => ({ sort, status, offset, limit })),
      ),
    ),
  );
}

async function page(repository: Repository, slice: UserSlice) {
  const { users, total } = await repository.listUsers(slice);
  return { total, ids: users.map((user) => user.id) };
}

/** Every slice's page and total on PostgreSQL, beside the in-memory repository's. */
async function expectSamePages(postgresRepo: Repository, memory: Repository): Promise<void> {
  const { total } = await memory.listUsers({ sort: [], offset: 0, limit: 1 });
  for (const slice of slices(total)) {
    const [actual, expected] = await Promise.all([page(postgresRepo, slice), page(memory, slice)]);
    expect({ slice, ...actual }).toEqual({ slice, ...expected });
  }
}

async function sql<R extends pg.QueryResultRow>(url: string, text: string): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<R>(text)).rows;
  } finally {
    await client.end();
  }
}

/** The range counts, summed by status, beside a count of the users themselves. */
async function expectExactRangeCounts(url: string): Promise<void> {
  const kept = await sql(
    url,
    `SELECT status, first_id, sum(n)::int AS n FROM apikit_user_ranges
      GROUP BY 1, 2 HAVING sum(n) <> 0 ORDER BY 1, 2`,
  );
  const counted = await sql(
    url,
    `SELECT status, id - id % 4096 AS first_id, count(*)::int AS n FROM users
      GROUP BY 1, 2 ORDER BY 1, 2`,
  );
  expect(kept).toEqual(counted);
}

/** Rows of the range counts that writers wrote (not folded), below the two newest ranges. */
async function unfoldedRows(url: string): Promise<number> {
  const [row] = await sql<{ n: number }>(
    url,
    `SELECT count(*)::int AS n FROM apikit_user_ranges
      WHERE shard >= 0 AND first_id < (SELECT max(id) - max(id) % 4096 - 4096 FROM users)`,
  );
  return row?.n ?? -1;
}

/** Ids 100 to 4,300 in steps of 7, every `writers`-th from the `k`-th: writer k's users. */
function ownedBy(k: number, writers: number): number[] {
  const ids: number[] = [];
  for (let id = 100 + 7 * k; id <= 4_300; id += 7 * writers) ids.push(id);
  return ids;
}

/**
 * What the churn does to one user: every third deleted, the others' status flipped between
 * BLOCKED and ACTIVE. Writers own disjoint users, so the end state does not depend on how
 * their transactions interleave.
 */
async function churnUser(tx: RepositoryWriter, id: number): Promise<void> {
  const user = await tx.user(id);
  if (user === undefined) return;
  if (id % 3 === 0) await tx.deleteUser(id);
  else await tx.putUser({ ...user, status: user.status === 'BLOCKED' ? 'ACTIVE' : 'BLOCKED' });
}

async function openBoth(dataset: Dataset, pruneIntervalMs?: number) {
  const url = await postgres.freshDatabase();
  const { repository } = await openPostgresRepository({
    connectionString: url,
    seed: async () => structuredClone(dataset),
    poolSize: 8,
    transactions: { pruneIntervalMs },
  });
  const memory = createDatasetRepository(new MemoryStore(structuredClone(dataset)));
  return { url, repository, memory };
}

describe('PostgreSQL deep pages of the id order', () => {
  it('answers every page as the in-memory repository does, before and after writes', async () => {
    const { url, repository, memory } = await openBoth(sparseDataset());
    await expectExactRangeCounts(url);
    await expectSamePages(repository, memory);
    await write(repository);
    await write(memory);
    await expectExactRangeCounts(url);
    await expectSamePages(repository, memory);
    await Promise.all([repository.close(), memory.close()]);
  }, 120_000);

  it('places a deep page by the range counts: a count tampered with moves the page', async () => {
    const { url, repository } = await openBoth(sparseDataset());
    const deep: UserSlice = { sort: [], offset: 20_000, limit: 5 };
    const shallow: UserSlice = { sort: [], offset: DEEP_PAGE_FROM - 5, limit: 5 };
    const [deepBefore, shallowBefore] = [
      await page(repository, deep),
      await page(repository, shallow),
    ];
    // One more user counted in the first range than it holds: every later page starts one early.
    await sql(
      url,
      `UPDATE apikit_user_ranges SET n = n + 1 WHERE ctid = (
         SELECT ctid FROM apikit_user_ranges WHERE first_id = 0 AND status = 'ACTIVE' LIMIT 1)`,
    );
    const deepAfter = await page(repository, deep);
    expect(deepAfter.ids).not.toEqual(deepBefore.ids);
    expect(deepAfter.ids.slice(1)).toEqual(deepBefore.ids.slice(0, -1));
    expect(await page(repository, shallow)).toEqual(shallowBefore);
    await repository.close();
  }, 60_000);

  it('fills the range counts from the users already there when migration 3 runs late', async () => {
    const { url, repository } = await openBoth(sparseDataset());
    await repository.close();
    // A database from before migration 3: its table, function and triggers gone, not recorded.
    await sql(
      url,
      `DROP TABLE apikit_user_ranges CASCADE; DROP FUNCTION apikit_count_user_ranges() CASCADE;
       DROP FUNCTION apikit_fold_user_ranges(); DROP FUNCTION apikit_forget_user_ranges() CASCADE;
       DELETE FROM apikit_schema_migrations WHERE version = 3`,
    );
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    expect(await migrate(client)).toEqual([3]);
    await client.end();
    await expectExactRangeCounts(url);
  }, 60_000);
  it('folds the counts of older ranges while writers change them, losing no count', async () => {
    // Housekeeping only when asked below: the folds race the writers on purpose.
    const { url, repository, memory } = await openBoth(sparseDataset(), 3_600_000);
    expect(await unfoldedRows(url)).toBe(0); // the seed's load folded its counts
    const writers = 6;
    let writing = true;
    const folder = new pg.Client({ connectionString: url });
    await folder.connect();
    const folding = (async () => {
      let folds = 0;
      for (; writing && folds < 2_000; folds += 1) {
        await folder.query('SELECT apikit_fold_user_ranges()');
      }
      return folds;
    })();
    const churning = Promise.all(
      Array.from({ length: writers }, async (_, k) => {
        for (const id of ownedBy(k, writers)) await repository.transact((tx) => churnUser(tx, id));
      }),
    ).finally(() => (writing = false));
    const [folds] = await Promise.all([folding, churning]);
    expect(folds).toBeGreaterThan(0);
    // The same changes in memory, in one transaction (a save of 38,000 users each is slow).
    await memory.transact(async (tx) => {
      for (let k = 0; k < writers; k += 1)
        for (const id of ownedBy(k, writers)) await churnUser(tx, id);
    });
    await expectExactRangeCounts(url);
    await expectSamePages(repository, memory);
    await folder.query('SELECT apikit_fold_user_ranges()');
    await folder.end();
    expect(await unfoldedRows(url)).toBe(0);
    await expectExactRangeCounts(url);
    await Promise.all([repository.close(), memory.close()]);
  }, 180_000);

  it('folds the counts after a committed write of users, as housekeeping', async () => {
    const block = (repository: Repository, ids: number[]) =>
      repository.transact(async (tx) => {
        for (const id of ids) await tx.putUser({ ...(await tx.user(id))!, status: 'BLOCKED' });
      });
    // Once per interval: the first write folds, a second one within the hour leaves its rows.
    const hourly = await openBoth(sparseDataset(), 3_600_000);
    await block(hourly.repository, [100, 200]);
    await block(hourly.repository, [300, 400]);
    expect(await unfoldedRows(hourly.url)).toBeGreaterThan(0);
    await hourly.repository.close();
    const always = await openBoth(sparseDataset(), 0);
    await block(always.repository, [100, 200]);
    await block(always.repository, [300, 400]);
    expect(await unfoldedRows(always.url)).toBe(0);
    await expectExactRangeCounts(always.url);
    await always.repository.close();
  }, 60_000);

  it('empties the range counts with the users, also where a reset does not name them', async () => {
    // replaceDataSet truncates the tables it knows, as an older apikit's reset does; the
    // counts of the users it removed must go with them (a trigger on TRUNCATE).
    const { url, repository } = await openBoth(sparseDataset());
    const smaller = sparseDataset();
    for (const id of Object.keys(smaller.users))
      if (Number(id) >= 100 && Number(id) % 2 === 0) delete smaller.users[id];
    await repository.transact((tx) => tx.replaceDataSet(structuredClone(smaller)));
    await expectExactRangeCounts(url);
    const memory = createDatasetRepository(new MemoryStore(structuredClone(smaller)));
    await expectSamePages(repository, memory);
    await Promise.all([repository.close(), memory.close()]);
  }, 120_000);
});
