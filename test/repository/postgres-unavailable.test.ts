import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../core/domain/store.js';
import { openPostgresRepository } from '../../reference-server/store/postgres/open-postgres-repository.js';
import { testDataset, userRecord } from '../support/domain/test-dataset.js';
import { usePostgresCluster } from '../support/postgres/postgres-cluster.js';

// A database that goes away answers StoreUnavailableError (the pipeline's 503 with
// Retry-After), and the repository recovers by itself once it is back: no restart of apikit.
const postgres = usePostgresCluster();

describe('PostgreSQL repository when the database goes away', () => {
  it('rejects with StoreUnavailableError while it is down, and works again once it is back', async () => {
    const connectionString = await postgres.freshDatabase();
    const { repository } = await openPostgresRepository({
      connectionString,
      seed: async () => testDataset(),
      poolSize: 3,
      connectionTimeoutMillis: 1_000,
    });
    // Connections are open and idle in the pool when the database stops.
    await Promise.all([repository.user(1), repository.user(2), repository.user(3)]);
    postgres.cluster.stop('immediate');
    await expect(repository.user(1)).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(repository.transact((tx) => tx.nextId('users'))).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    await expect(repository.snapshot((reader) => reader.user(1))).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    await postgres.cluster.start();
    expect((await repository.user(1))?.email).toBe('ada@example.com');
    const id = await repository.transact(async (tx) => {
      const fresh = await tx.nextId('users');
      await tx.putUser(userRecord(fresh));
      return fresh;
    });
    expect(await repository.user(id)).toBeDefined();
    await repository.close();
  });

  it('loses no acknowledged commit to an immediate shutdown under write load', async () => {
    const { repository } = await openPostgresRepository({
      connectionString: await postgres.freshDatabase(),
      seed: async () => testDataset(),
      poolSize: 8,
      connectionTimeoutMillis: 1_000,
    });
    const acknowledged: number[] = [];
    let failures = 0;
    let stopping = false;
    const writer = async () => {
      while (!stopping) {
        try {
          const id = await repository.transact(async (tx) => {
            const fresh = await tx.nextId('users');
            await tx.putUser(userRecord(fresh));
            return fresh;
          });
          acknowledged.push(id);
        } catch (error) {
          expect(error).toBeInstanceOf(StoreUnavailableError);
          failures += 1;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }
    };
    const writers = Array.from({ length: 8 }, writer);
    await new Promise((resolve) => setTimeout(resolve, 400));
    postgres.cluster.stop('immediate');
    await new Promise((resolve) => setTimeout(resolve, 200));
    stopping = true;
    await Promise.all(writers);
    await postgres.cluster.start();
    expect(acknowledged.length).toBeGreaterThan(20);
    expect(failures).toBeGreaterThan(0);
    const missing: number[] = [];
    for (const id of acknowledged) if ((await repository.user(id)) === undefined) missing.push(id);
    expect(missing).toEqual([]);
    await repository.close();
  });

  it('answers StoreUnavailableError when opening a database that cannot be reached', async () => {
    const opening = openPostgresRepository({
      connectionString: 'postgres://postgres@127.0.0.1:1/none',
      seed: async () => testDataset(),
      connectionTimeoutMillis: 1_000,
    });
    await expect(opening).rejects.toBeInstanceOf(StoreUnavailableError);
  });

  it('answers StoreUnavailableError when the pool stays exhausted', async () => {
    const { repository } = await openPostgresRepository({
      connectionString: await postgres.freshDatabase(),
      seed: async () => testDataset(),
      poolSize: 1,
      connectionTimeoutMillis: 200,
    });
    let release!: () => void;
    const held = repository.transact(() => new Promise<void>((resolve) => (release = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(repository.user(1)).rejects.toBeInstanceOf(StoreUnavailableError);
    release();
    await held;
    expect(await repository.user(1)).toBeDefined();
    await repository.close();
  });

  it("answers StoreUnavailableError when an operator's statement or lock timeout cancels", async () => {
    for (const setting of ['statement_timeout', 'lock_timeout']) {
      const connectionString = await postgres.freshDatabase();
      const database = new URL(connectionString).pathname.slice(1);
      const admin = new pg.Client({ connectionString });
      await admin.connect();
      await admin.query(`ALTER DATABASE ${database} SET ${setting} = '300ms'`);
      const { repository } = await openPostgresRepository({
        connectionString,
        seed: async () => testDataset(),
        poolSize: 2,
      });
      // Another session holds the users table: every statement on it waits, then is cancelled.
      await admin.query('BEGIN');
      await admin.query('LOCK TABLE users IN ACCESS EXCLUSIVE MODE');
      await expect(repository.user(1), setting).rejects.toBeInstanceOf(StoreUnavailableError);
      await expect(
        repository.transact(async (tx) => tx.putUser(userRecord(await tx.nextId('users')))),
        setting,
      ).rejects.toBeInstanceOf(StoreUnavailableError);
      await admin.query('COMMIT');
      expect((await repository.user(1))?.email).toBe('ada@example.com');
      await admin.end();
      await repository.close();
    }
  });
});
