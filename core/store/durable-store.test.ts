import { describe, expect, it } from 'vitest';
import type { Dataset, UserRecord } from '../domain/dataset.js';
import { StoreUnavailableError, type Store } from '../domain/store.js';
import { createDurableStore } from './durable-store.js';
import { emptyDataset } from './empty-dataset.js';
import { FailingAdapter } from '../../test/support/store/failing-adapter.js';
import { MemoryAdapter } from './memory-adapter.js';

function user(id: number): UserRecord {
  return {
    id,
    name: `User ${id}`,
    email: `user${id}@example.com`,
    age: null,
    status: 'INACTIVE',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    roleIds: [1],
    passwordHash: null,
  };
}

/** The mutation most tests use: take the next id and insert a user under it. */
function addUser(data: Dataset): number {
  const id = ++data.counters.users;
  data.users[String(id)] = user(id);
  return id;
}

async function open(options: { delayMs?: number } = {}) {
  const disk = new FailingAdapter(new MemoryAdapter<Dataset>(), options);
  const store = await createDurableStore({ adapter: disk, seed: () => emptyDataset() });
  return { disk, store };
}

describe('createDurableStore', () => {
  it('seeds an empty adapter and writes the seed before resolving', async () => {
    const { disk, store } = await open();
    expect(disk.writeCount).toBe(1);
    expect(await disk.read()).toEqual(emptyDataset());
    expect(store.data).toEqual(emptyDataset());
  });

  it('opens what the adapter holds without seeding', async () => {
    const disk = new MemoryAdapter<Dataset>();
    await disk.write({ ...emptyDataset(), counters: { users: 7, orders: 0, orderItems: 0 } });
    let seeded = false;
    const store = await createDurableStore({
      adapter: disk,
      seed: () => ((seeded = true), emptyDataset()),
    });
    expect(seeded).toBe(false);
    expect(store.data.counters.users).toBe(7);
  });

  it('resolves a write with its result once the adapter holds the change', async () => {
    const { disk, store } = await open({ delayMs: 2 });
    const id = await store.write(addUser);
    expect(id).toBe(1);
    expect((await disk.read())?.users['1']).toEqual(user(1));
  });

  it('commits 200 concurrent writes in a handful of flushes, losing none', async () => {
    // A flush takes 20 ms, far longer than a turn, so flushes cannot keep pace with arrivals.
    const { disk, store } = await open({ delayMs: 20 });
    const before = disk.writeCount;
    const writes: Promise<number>[] = [];
    // Arrivals spread over 20 turns of the event loop, as requests would come in.
    for (let turn = 0; turn < 20; turn += 1) {
      for (let i = 0; i < 10; i += 1) writes.push(store.write(addUser));
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    const ids = await Promise.all(writes);
    const flushes = disk.writeCount - before;

    expect(new Set(ids).size).toBe(200);
    expect(store.data.counters.users).toBe(200);
    expect(Object.keys(store.data.users)).toHaveLength(200);
    expect(await disk.read()).toEqual(store.data);
    expect(flushes).toBeLessThan(20);
    console.info(`group commit: 200 writes, ${flushes} adapter writes`);
  });

  it('needs at most two flushes for a synchronous burst', async () => {
    const { disk, store } = await open({ delayMs: 5 });
    const before = disk.writeCount;
    await Promise.all(Array.from({ length: 200 }, () => store.write(addUser)));
    expect(disk.writeCount - before).toBeLessThanOrEqual(2);
    expect((await disk.read())?.counters.users).toBe(200);
  });

  it('rejects with what mutate threw, persists nothing, and keeps working', async () => {
    const { disk, store } = await open();
    const before = disk.writeCount;
    const refusal = new Error('email taken');
    await expect(
      store.write(() => {
        throw refusal;
      }),
    ).rejects.toBe(refusal);
    expect(disk.writeCount).toBe(before);
    expect(store.data).toEqual(emptyDataset());
    await expect(store.write(addUser)).resolves.toBe(1);
    expect((await disk.read())?.counters.users).toBe(1);
  });

  it('refuses an async mutate', async () => {
    const { store } = await open();
    await expect(store.write(async () => 1)).rejects.toThrow(/synchronous/);
  });

  it('on a failed flush rejects with StoreUnavailableError and rolls memory back', async () => {
    const { disk, store } = await open();
    await store.write(addUser);
    const data = store.data;
    const diskFull = new Error('ENOSPC');
    disk.failWrites(diskFull);

    const failed = store.write(addUser);
    await expect(failed).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(failed).rejects.toMatchObject({ cause: diskFull, retryAfterSeconds: 1 });

    // Rolled back before the rejection: the same object, deep equal to the durable copy.
    expect(store.data).toBe(data);
    expect(store.data).toEqual(await disk.read());
    expect(store.data.counters.users).toBe(1);
    expect(store.data.users['2']).toBeUndefined();

    // While the disk stays full, every write fails the same way.
    await expect(store.write(addUser)).rejects.toBeInstanceOf(StoreUnavailableError);
    expect(store.data.counters.users).toBe(1);

    disk.healWrites();
    await expect(store.write(addUser)).resolves.toBe(2);
    expect(await disk.read()).toEqual(store.data);
  });

  it('fails every write that joined a failing flush, and keeps none of them', async () => {
    const { disk, store } = await open({ delayMs: 10 });
    await store.write(addUser);
    disk.failWrites();

    const first = store.write(addUser); // starts the failing flush
    const joined = Array.from({ length: 20 }, () => store.write(addUser)); // applied meanwhile
    const results = await Promise.allSettled([first, ...joined]);

    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    for (const result of results) {
      expect(result.status === 'rejected' && result.reason).toBeInstanceOf(StoreUnavailableError);
    }
    disk.healWrites();
    await expect(store.write(() => store.data.counters.users)).resolves.toBe(1);
    expect(Object.keys(store.data.users)).toEqual(['1']);
    expect(store.data).toEqual(await disk.read());
  });

  it('keeps refusing writes while the durable copy cannot be reloaded, then recovers', async () => {
    const { disk, store } = await open();
    disk.failWrites();
    disk.failReads();
    await expect(store.write(addUser)).rejects.toBeInstanceOf(StoreUnavailableError);
    disk.healWrites();
    // Memory may hold the failed change until a reload succeeds: no write may build on it.
    await expect(store.write(addUser)).rejects.toThrow(/reloaded/);
    disk.healReads();
    await expect(store.write(addUser)).resolves.toBe(1);
    expect(store.data).toEqual(await disk.read());
  });

  it('close waits for pending writes, then refuses new ones', async () => {
    const { disk, store } = await open({ delayMs: 10 });
    let settled = 0;
    const pending = Array.from({ length: 5 }, () =>
      store.write(addUser).then(() => (settled += 1)),
    );
    await store.close();
    expect(settled).toBe(5);
    expect((await disk.read())?.counters.users).toBe(5);
    await Promise.all(pending);

    const refused = store.write(addUser);
    await expect(refused).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(refused).rejects.toThrow('store is closed');
    expect(store.data.counters.users).toBe(5);
    await expect(store.close()).resolves.toBeUndefined();
  });

  it('gathers writers that come back after their flush into one batch', async () => {
    // Ten clients, each writing again as soon as its write is durable. Started at once, the
    // flush after a full batch would carry the first client back alone, and the other nine
    // would wait behind it (batches of 1 and 9 in turn).
    const { disk, store } = await open({ delayMs: 40 });
    const before = disk.writeCount;
    const client = async () => {
      for (let round = 0; round < 5; round += 1) await store.write(addUser);
    };
    await Promise.all(Array.from({ length: 10 }, client));

    expect(store.data.counters.users).toBe(50);
    expect(await disk.read()).toEqual(store.data);
    // The very first write finds the store idle and goes alone; from then on each flush
    // carries a write of every client (alternating batches would take 10 flushes).
    expect(disk.writeCount - before).toBe(6);
  });

  it("starts a lone writer's flush at once", async () => {
    const { disk, store } = await open({ delayMs: 20 });
    for (let i = 1; i <= 3; i += 1) {
      const before = disk.writeCount;
      const write = store.write(addUser);
      // Handed to the adapter synchronously: no timer stood in between.
      expect(disk.writeCount).toBe(before + 1);
      await expect(write).resolves.toBe(i);
    }
  });

  /** Leaves the store having just made a batch of two writers durable. */
  async function afterBatchOfTwo(store: Store): Promise<void> {
    const first = store.write(addUser); // goes alone: the store is idle
    await Promise.all([first, store.write(addUser), store.write(addUser)]);
  }

  it('does not wait for a writer that does not come back', async () => {
    const { disk, store } = await open({ delayMs: 40 });
    await afterBatchOfTwo(store);
    const before = disk.writeCount;
    // Only one of the two writes again: it waits for the other (a quarter of the last flush
    // at most), then goes alone.
    const again = store.write(addUser);
    expect(disk.writeCount).toBe(before);
    await expect(again).resolves.toBe(4);
    expect(disk.writeCount).toBe(before + 1);
  });

  it('close flushes a batch that was waiting for more writers', async () => {
    const { disk, store } = await open({ delayMs: 40 });
    await afterBatchOfTwo(store);
    const waiting = store.write(addUser);
    await store.close();
    await expect(waiting).resolves.toBe(4);
    expect((await disk.read())?.counters.users).toBe(4);
  });

  it('passes retryAfterSeconds on to its errors', async () => {
    const disk = new FailingAdapter(new MemoryAdapter<Dataset>());
    const store = await createDurableStore({
      adapter: disk,
      seed: () => emptyDataset(),
      retryAfterSeconds: 7,
    });
    disk.failWrites();
    await expect(store.write(addUser)).rejects.toMatchObject({ retryAfterSeconds: 7 });
  });
});
