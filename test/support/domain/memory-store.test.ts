import { describe, expect, it } from 'vitest';
import { StoreUnavailableError } from '../../../core/domain/store.js';
import { MemoryStore } from './memory-store.js';
import { testDataset } from './test-dataset.js';

describe('MemoryStore (test double)', () => {
  it('runs the callback at once and resolves with its result', async () => {
    const store = new MemoryStore(testDataset());
    const pending = store.write((data) => (data.counters.users += 1));
    expect(store.data.counters.users).toBe(5);
    await expect(pending).resolves.toBe(5);
    expect(store.writes).toBe(1);
  });

  it('rejects with what a clean callback threw', async () => {
    const store = new MemoryStore(testDataset());
    await expect(
      store.write(() => {
        throw new RangeError('no');
      }),
    ).rejects.toThrow(RangeError);
    expect(store.writes).toBe(0);
  });

  it('restores and fails loudly when a callback changed data before throwing', async () => {
    const store = new MemoryStore(testDataset());
    await expect(
      store.write((data) => {
        data.counters.users = 99;
        throw new Error('late check');
      }),
    ).rejects.toThrow('changed data before it threw');
    expect(store.data.counters.users).toBe(4);
  });

  it('refuses writes once closed', async () => {
    const store = new MemoryStore(testDataset());
    await store.close();
    await expect(store.write(() => 1)).rejects.toThrow(StoreUnavailableError);
  });
});
