import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../core/domain/store.js';
import { openPostgresRepository } from '../../reference-server/store/postgres/open-postgres-repository.js';
import { testDataset, userRecord } from '../support/domain/test-dataset.js';
import { usePostgresCluster } from '../support/postgres/postgres-cluster.js';

// What the PostgreSQL repository adds to the port's suite: one snapshot under concurrent
// commits, a duplicate that is a bug rather than a race, closing under way.
const postgres = usePostgresCluster();

async function open(connectionString?: string) {
  const { repository } = await openPostgresRepository({
    connectionString: connectionString ?? (await postgres.wipedDatabase()),
    seed: async () => testDataset(),
    poolSize: 4,
  });
  return repository;
}

describe('PostgreSQL repository semantics', () => {
  it('reads one snapshot while other transactions commit', async () => {
    const repository = await open();
    const seen = await repository.snapshot(async (reader) => {
      const before = await reader.user(2);
      await repository.transact(async (tx) => {
        await tx.putUser({ ...before!, name: 'Changed' });
        await tx.deleteOrder(1);
      });
      return { user: (await reader.user(2))?.name, order: (await reader.order(1))?.id };
    });
    expect(seen).toEqual({ user: 'Bob', order: 1 });
    expect((await repository.user(2))?.name).toBe('Changed');
    await repository.close();
  });

  it('fails a transaction that writes a taken email without checking: the error, 3 runs', async () => {
    const repository = await open();
    let runs = 0;
    const attempt = repository.transact(async (tx) => {
      runs += 1;
      await tx.putUser(userRecord(await tx.nextId('users'), { email: 'ADA@example.com' }));
    });
    const error = await attempt.catch((caught: unknown) => caught);
    expect(error).not.toBeInstanceOf(StoreUnavailableError);
    expect((error as { code?: string }).code).toBe('23P01');
    expect(runs).toBe(3);
    expect(await repository.usersByEmail('ada@example.com')).toHaveLength(1);
    await repository.close();
  });

  it('lets the transactions under way finish when closed, then refuses', async () => {
    const url = await postgres.freshDatabase();
    const repository = await open(url);
    const slow = repository.transact(async (tx) => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const id = await tx.nextId('users');
      await tx.putUser(userRecord(id));
      return id;
    });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const closing = repository.close();
    const id = await slow;
    await closing;
    await expect(repository.user(1)).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(repository.transact((tx) => tx.user(1))).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
    const reopened = await open(url);
    expect(await reopened.user(id)).toBeDefined();
    await reopened.close();
  });
});
