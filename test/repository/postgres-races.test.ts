import { describe, expect, it } from 'vitest';
import { ADMIN_ROLE_ID, USER_ROLE_ID } from '../../core/domain/role-ids.js';
import type { Repository } from '../../core/repository/repository.js';
import { openPostgresRepository } from '../../reference-server/store/postgres/open-postgres-repository.js';
import { refreshToken, testDataset, userRecord } from '../support/domain/test-dataset.js';
import { usePostgresCluster } from '../support/postgres/postgres-cluster.js';

// What only a database shared by several instances can get wrong: transactions racing through
// separate repositories (separate pools, as separate instances have) on one database.
const postgres = usePostgresCluster();

class Conflict extends Error {}

async function instances(count: number): Promise<Repository[]> {
  const connectionString = await postgres.freshDatabase();
  const opened = await Promise.all(
    Array.from({ length: count }, () =>
      openPostgresRepository({ connectionString, seed: async () => testDataset(), poolSize: 8 }),
    ),
  );
  return opened.map(({ repository }) => repository);
}

async function closeAll(repositories: Repository[]): Promise<void> {
  await Promise.all(repositories.map((repository) => repository.close()));
}

/** The domain's create: check the email is free, then insert under a fresh id. */
function createUser(
  repository: Repository,
  email: string,
  beforeWrite?: () => Promise<void>,
  runs = { count: 0 },
) {
  return repository.transact(async (tx) => {
    runs.count += 1;
    if ((await tx.usersByEmail(email)).length > 0) throw new Conflict(email);
    await beforeWrite?.();
    const id = await tx.nextId('users');
    await tx.putUser(userRecord(id, { email }));
    return id;
  });
}

describe('PostgreSQL repository under concurrent transactions', () => {
  it('lets exactly one of two check-then-insert races on one email commit', async () => {
    const [a, b] = await instances(2);
    // Both have checked before either writes: without the database's help both would insert.
    let arrived = 0;
    let release!: () => void;
    const bothChecked = new Promise<void>((resolve) => (release = resolve));
    const barrier = async () => {
      arrived += 1;
      if (arrived === 2) release();
      await Promise.race([bothChecked, new Promise((r) => setTimeout(r, 2_000))]);
    };
    const runs = { count: 0 };
    const results = await Promise.allSettled([
      createUser(a!, 'Race@Example.com', barrier, runs),
      createUser(b!, 'race@example.COM', barrier, runs),
    ]);
    // The loser ran again (a serialization failure or the unique index) and saw the winner.
    expect(runs.count).toBeGreaterThanOrEqual(3);
    const fulfilled = results.filter((result) => result.status === 'fulfilled');
    const refused = results.filter(
      (result) => result.status === 'rejected' && result.reason instanceof Conflict,
    );
    expect([fulfilled.length, refused.length]).toEqual([1, 1]);
    expect(await a!.usersByEmail('RACE@example.com')).toHaveLength(1);
    await closeAll([a!, b!]);
  });

  it('gives one success and n - 1 conflicts for n concurrent creates over three instances', async () => {
    const repositories = await instances(3);
    const attempts = Array.from({ length: 60 }, (_, i) =>
      createUser(repositories[i % 3]!, `Same@Example.com`),
    );
    const results = await Promise.allSettled(attempts);
    const created = results.filter((result) => result.status === 'fulfilled');
    const conflicts = results.filter(
      (result) => result.status === 'rejected' && result.reason instanceof Conflict,
    );
    expect({ created: created.length, conflicts: conflicts.length }).toEqual({
      created: 1,
      conflicts: 59,
    });
    await closeAll(repositories);
  });

  it('creates concurrently as many distinct users as asked on a small table, none refused', async () => {
    // A small table is where SERIALIZABLE's page-level conflicts bite: a sequential scan or a
    // hash index of 4 buckets made every create conflict with every other.
    const repositories = await instances(2);
    const runs = { count: 0 };
    const created = await Promise.all(
      Array.from({ length: 48 }, (_, i) =>
        createUser(repositories[i % 2]!, `new-${i}@example.com`, undefined, runs),
      ),
    );
    expect(new Set(created).size).toBe(48);
    // 75 runs measured; 113 with the email lookup ordered by id, 150 with 4 hash buckets.
    expect(runs.count).toBeLessThan(100);
    await closeAll(repositories);
  });

  it('hands out distinct ids to concurrent transactions, also across a reservation', async () => {
    const repositories = await instances(3);
    const take = (i: number) => repositories[i % 3]!.transact((tx) => tx.nextId('orders'));
    const reserve = repositories[0]!.transact((tx) => tx.reserveId('orders', 500));
    const ids = await Promise.all([...Array.from({ length: 90 }, (_, i) => take(i)), reserve]);
    const taken = ids.filter((id): id is number => typeof id === 'number');
    expect(new Set(taken).size).toBe(90);
    const after = await repositories[1]!.transact((tx) => tx.nextId('orders'));
    expect(after).toBeGreaterThan(Math.max(500, ...taken));
    await closeAll(repositories);
  });

  it('never lets two concurrent demotions leave no unblocked ADMIN', async () => {
    const [a, b] = await instances(2);
    const admin = [USER_ROLE_ID, ADMIN_ROLE_ID];
    await a!.transact((tx) =>
      tx.putUser(userRecord(2, { email: 'bob@example.com', roleIds: admin })),
    );
    const demote = (repository: Repository, id: number) =>
      repository.transact(async (tx) => {
        if (!(await tx.hasOtherUnblockedAdmin(id))) throw new Conflict('last admin');
        await new Promise((resolve) => setTimeout(resolve, 20));
        const user = await tx.user(id);
        await tx.putUser({ ...user!, roleIds: [USER_ROLE_ID] });
      });
    const results = await Promise.allSettled([demote(a!, 1), demote(b!, 2)]);
    expect(results.map((result) => result.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(await a!.hasOtherUnblockedAdmin(0)).toBe(true);
    await closeAll([a!, b!]);
  });
});

describe('PostgreSQL repository housekeeping under concurrent logins', () => {
  it('prunes without making concurrent logins conflict', async () => {
    const [a, b] = await instances(2);
    let runs = 0;
    const login = (repository: Repository, i: number) =>
      repository.transact(async (tx) => {
        runs += 1;
        await tx.user(1);
        await tx.putRefreshToken({ ...refreshToken(`login-${i}`, 1), familyId: `f-${i}` });
        await tx.pruneExpiredFamilies(new Date(Date.UTC(2026, 0, 1) + i));
      });
    await Promise.all(Array.from({ length: 40 }, (_, i) => login(i % 2 ? a! : b!, i)));
    expect(runs).toBeLessThan(60);
    expect(await a!.refreshToken('login-39')).toBeDefined();
    await closeAll([a!, b!]);
  });
});

describe('PostgreSQL repository at start', () => {
  it('migrates and seeds once when several instances open a new database at once', async () => {
    const connectionString = await postgres.freshDatabase();
    let seeds = 0;
    const seed = async () => {
      seeds += 1;
      return testDataset();
    };
    const opened = await Promise.all(
      Array.from({ length: 4 }, () => openPostgresRepository({ connectionString, seed })),
    );
    expect(opened.filter((one) => one.seeded)).toHaveLength(1);
    expect(opened.filter((one) => one.migrated.length > 0)).toHaveLength(1);
    expect(seeds).toBe(1);
    for (const { repository } of opened) {
      expect((await repository.listUsers({ sort: [], offset: 0, limit: 1 })).total).toBe(4);
    }
    await closeAll(opened.map((one) => one.repository));
    const again = await openPostgresRepository({ connectionString, seed });
    expect({ seeded: again.seeded, migrated: again.migrated }).toEqual({
      seeded: false,
      migrated: [],
    });
    await again.repository.close();
  });
});
