import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Dataset, UserRecord } from '../../core/domain/dataset.js';
import { StoreUnavailableError } from '../../core/domain/store.js';
import { createStore } from './create-store.js';
import { DurableJsonFile } from './durable-json-file.js';
import { createDurableStore } from '../../core/store/durable-store.js';
import { emptyDataset } from '../../core/store/empty-dataset.js';
import { FailingAdapter } from '../../test/support/store/failing-adapter.js';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'apikit-store-'));
  file = join(dir, 'data', 'db.json');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function user(id: number, name = `User ${id}`): UserRecord {
  return {
    id,
    name,
    email: `user${id}@example.com`,
    age: 30,
    status: 'ACTIVE',
    createdAt: '2025-01-01T00:00:00.000Z',
    updatedAt: '2025-01-01T00:00:00.000Z',
    roleIds: [1],
    passwordHash: null,
  };
}

function addUser(data: Dataset): number {
  const id = ++data.counters.users;
  data.users[String(id)] = user(id);
  return id;
}

async function readDisk(): Promise<Dataset> {
  return JSON.parse(await readFile(file, 'utf8')) as Dataset;
}

describe('createStore on a file', () => {
  it('seeds the file on first open, and reopens it unchanged without seeding', async () => {
    const seed = { ...emptyDataset(), users: { '1': user(1) } };
    const first = await createStore({ file, seed: () => seed });
    expect(await readDisk()).toEqual(seed);
    await first.close();

    let seededAgain = false;
    const second = await createStore({ file, seed: () => ((seededAgain = true), emptyDataset()) });
    expect(seededAgain).toBe(false);
    expect(second.data).toEqual(seed);
    await second.close();
  });

  it('resolves each write only once the file holds its change', async () => {
    const store = await createStore({ file, seed: () => emptyDataset() });
    const seen: boolean[] = await Promise.all(
      Array.from({ length: 20 }, () =>
        store.write(addUser).then((id) => {
          const onDisk = JSON.parse(readFileSync(file, 'utf8')) as Dataset;
          return onDisk.users[String(id)]?.id === id;
        }),
      ),
    );
    expect(seen).toEqual(Array.from({ length: 20 }, () => true));
    await store.close();
  });

  it('group-commits 200 concurrent writes in far fewer file writes', async () => {
    const disk = new FailingAdapter(new DurableJsonFile(file), { delayMs: 20 });
    const store = await createDurableStore({ adapter: disk, seed: () => emptyDataset() });
    const before = disk.writeCount;
    const writes: Promise<number>[] = [];
    for (let turn = 0; turn < 20; turn += 1) {
      for (let i = 0; i < 10; i += 1) writes.push(store.write(addUser));
      await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await Promise.all(writes);
    const fileWrites = disk.writeCount - before;
    console.info(`group commit on a file: 200 writes, ${fileWrites} file writes`);

    expect(fileWrites).toBeLessThan(20);
    const onDisk = await readDisk();
    expect(onDisk.counters.users).toBe(200);
    expect(Object.keys(onDisk.users)).toHaveLength(200);
    await store.close();
  });

  it('rolls memory back to the file when a save fails, and recovers', async () => {
    const disk = new FailingAdapter(new DurableJsonFile(file), { delayMs: 5 });
    const store = await createDurableStore({ adapter: disk, seed: () => emptyDataset() });
    await store.write(addUser);
    disk.failWrites();
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => store.write(addUser)));
    for (const result of results) {
      expect(result.status === 'rejected' && result.reason).toBeInstanceOf(StoreUnavailableError);
    }
    expect(store.data).toEqual(await readDisk());
    expect(store.data.counters.users).toBe(1);

    disk.healWrites();
    await expect(store.write(addUser)).resolves.toBe(2);
    expect((await readDisk()).counters.users).toBe(2);
    await store.close();
  });

  it('refuses to open a corrupt file, naming it, and leaves it alone', async () => {
    const first = await createStore({ file, seed: () => emptyDataset() });
    await first.close();
    await writeFile(file, '{"schemaVersion":1,"use');
    await expect(createStore({ file, seed: () => emptyDataset() })).rejects.toThrow(file);
    expect(await readFile(file, 'utf8')).toBe('{"schemaVersion":1,"use');
  });

  it('never shows a reader a torn file', async () => {
    // About 400 KB: a plain (non-atomic) overwrite of this size is caught half-way most times.
    const seed = emptyDataset();
    for (let id = 1; id <= 2000; id += 1) seed.users[String(id)] = user(id, 'x'.repeat(100));
    seed.counters.users = 2000;
    const store = await createStore({ file, seed: () => seed });

    let done = false;
    let reads = 0;
    const reader = (async () => {
      for (let i = 0; i < 10_000 && !done; i += 1) {
        JSON.parse(await readFile(file, 'utf8'));
        reads += 1;
      }
    })();
    for (let i = 0; i < 20; i += 1) await store.write(addUser);
    done = true;
    await reader;

    expect(reads).toBeGreaterThan(5);
    expect((await readDisk()).counters.users).toBe(2020);
    expect(await readdir(join(dir, 'data'))).toEqual(['db.json']);
    await store.close();
  });

  it('refuses writes after close, and the file keeps every acknowledged one', async () => {
    const store = await createStore({ file, seed: () => emptyDataset() });
    const pending = Array.from({ length: 3 }, () => store.write(addUser));
    await store.close();
    await expect(Promise.all(pending)).resolves.toEqual([1, 2, 3]);
    await expect(store.write(addUser)).rejects.toThrow('store is closed');
    expect((await readDisk()).counters.users).toBe(3);
  });
});

describe('createStore in memory', () => {
  it('seeds from memory and never touches the file', async () => {
    const store = await createStore({ memory: true, file, seed: () => emptyDataset() });
    await expect(store.write(addUser)).resolves.toBe(1);
    await expect(readdir(dir)).resolves.toEqual([]);
    await store.close();
  });

  it('needs a file or memory', async () => {
    await expect(createStore({ seed: () => emptyDataset() })).rejects.toThrow(TypeError);
  });
});
