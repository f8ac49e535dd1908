import { describe, expect, it } from 'vitest';
import type { Dataset } from '../domain/dataset.js';
import { StoreUnavailableError } from '../domain/store.js';
import { createDurableStore } from '../store/durable-store.js';
import { MemoryAdapter } from '../store/memory-adapter.js';
import { MemoryStore } from '../../test/support/domain/memory-store.js';
import { testDataset, userRecord } from '../../test/support/domain/test-dataset.js';
import { createDatasetRepository } from './dataset-repository.js';

function over(data: Dataset = testDataset()) {
  const store = new MemoryStore(data);
  return { store, repository: createDatasetRepository(store) };
}

describe('createDatasetRepository: transactions', () => {
  it('commits a change with one store write, and writes nothing for a transaction that changed nothing', async () => {
    const { store, repository } = over();
    await repository.transact(async (tx) => tx.user(1));
    expect(store.writes).toBe(0);
    await repository.transact(async (tx) => {
      const user = await tx.user(2);
      await tx.putUser({ ...user!, name: 'Renamed' });
    });
    expect(store.writes).toBe(1);
    expect((await repository.user(2))?.name).toBe('Renamed');
  });

  it('rolls back every change of a transaction that throws, the email index included', async () => {
    const { store, repository } = over();
    const before = structuredClone(store.data);
    const refused = repository.transact(async (tx) => {
      await tx.putUser(userRecord(50, { email: 'new@example.com' }));
      await tx.deleteUser(2);
      await tx.replaceDataSet({ ...testDataset(), users: {} });
      throw new Error('refused');
    });
    await expect(refused).rejects.toThrow('refused');
    const { counters: _after, ...rest } = store.data;
    const { counters: _before, ...expected } = before;
    expect(rest).toEqual(expected);
    expect(await repository.usersByEmail('NEW@example.com')).toEqual([]);
    expect(store.writes).toBe(0);
  });

  it('runs transactions one at a time, each seeing the one before', async () => {
    const { repository } = over();
    const ids = await Promise.all(
      Array.from({ length: 20 }, () =>
        repository.transact(async (tx) => {
          const id = await tx.nextId('users');
          await tx.putUser(userRecord(id, { email: `u${id}@example.com` }));
          return id;
        }),
      ),
    );
    expect(new Set(ids).size).toBe(20);
  });

  it('refuses a transaction that awaits something outside it, and rolls it back', async () => {
    const { store, repository } = over();
    const before = structuredClone(store.data.users);
    const crossing = repository.transact(async (tx) => {
      await tx.putUser(userRecord(60));
      await new Promise((resolve) => setTimeout(resolve, 5));
    });
    await expect(crossing).rejects.toThrow(/awaited something other than the repository/);
    expect(store.data.users).toEqual(before);
  });

  it('answers a failed save with StoreUnavailableError, memory back to what is durable', async () => {
    let fail = false;
    const adapter = new MemoryAdapter<Dataset>();
    const durableWrite = adapter.write.bind(adapter);
    adapter.write = async (data) => {
      if (fail) throw new Error('disk full');
      return durableWrite(data);
    };
    const store = await createDurableStore({ adapter, seed: async () => testDataset() });
    const repository = createDatasetRepository(store);
    fail = true;
    const write = repository.transact((tx) => tx.putUser(userRecord(70)));
    await expect(write).rejects.toBeInstanceOf(StoreUnavailableError);
    fail = false;
    expect(await repository.user(70)).toBeUndefined();
  });

  it('refuses transactions once closed', async () => {
    const { repository } = over();
    await repository.close();
    await expect(repository.transact(async (tx) => tx.nextId('users'))).rejects.toBeInstanceOf(
      StoreUnavailableError,
    );
  });
});
