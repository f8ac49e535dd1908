import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DurableJsonFile } from './durable-json-file.js';
import { emptyDataset } from '../../core/store/empty-dataset.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'apikit-json-file-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('DurableJsonFile', () => {
  it('reads null when the file does not exist', async () => {
    expect(await new DurableJsonFile(join(dir, 'db.json')).read()).toBeNull();
  });

  it('creates missing directories and writes compact JSON it reads back', async () => {
    const file = join(dir, 'nested', 'data', 'db.json');
    const adapter = new DurableJsonFile(file);
    await adapter.write(emptyDataset());

    const text = await readFile(file, 'utf8');
    expect(text).toBe(JSON.stringify(emptyDataset()));
    expect(text).not.toContain('\n');
    expect(await adapter.read()).toEqual(emptyDataset());
  });

  it('writes the data as it was when write was called', async () => {
    const adapter = new DurableJsonFile(join(dir, 'db.json'));
    const data = emptyDataset();
    const written = adapter.write(data);
    data.counters.users = 99;
    await written;
    expect((await adapter.read())?.counters.users).toBe(0);
  });

  it('leaves no temp file behind, after success or failure', async () => {
    const file = join(dir, 'db.json');
    const adapter = new DurableJsonFile(file);
    await Promise.all(Array.from({ length: 10 }, () => adapter.write(emptyDataset())));
    expect(await readdir(dir)).toEqual(['db.json']);

    // A non-empty directory where the file should be: the rename fails.
    const blocked = join(dir, 'blocked');
    await mkdir(join(blocked, 'inside'), { recursive: true });
    await expect(new DurableJsonFile(blocked).write(emptyDataset())).rejects.toThrow();
    expect((await readdir(dir)).sort()).toEqual(['blocked', 'db.json']);
  });

  it.each([
    ['truncated JSON', '{"schemaVersion":1,"users":{'],
    ['an empty file', ''],
    ['null', 'null'],
    ['an array', '[]'],
  ])('refuses a file holding %s, naming it', async (_, content) => {
    const file = join(dir, 'db.json');
    await writeFile(file, content);
    await expect(new DurableJsonFile(file).read()).rejects.toThrow(file);
    expect(await readFile(file, 'utf8')).toBe(content);
  });
});

describe('DurableJsonFile temp files', () => {
  it('removes temp files a killed writer left behind, on the first read, and nothing else', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'apikit-sweep-'));
    const file = join(dir, 'db.json');
    await writeFile(file, JSON.stringify({ kept: true }));
    await writeFile(join(dir, '.db.json.abc123.tmp'), 'half a write');
    await writeFile(join(dir, '.other.json.abc123.tmp'), 'not ours');
    await writeFile(join(dir, 'notes.tmp'), 'not ours either');
    const adapter = new DurableJsonFile(file);
    expect(await adapter.read()).toEqual({ kept: true });
    expect((await readdir(dir)).sort()).toEqual(['.other.json.abc123.tmp', 'db.json', 'notes.tmp']);
  });
});

describe('DurableJsonFile copying unchanged chunks', () => {
  function bigDataset() {
    const data = emptyDataset();
    for (let id = 1; id <= 500; id++) {
      data.users[String(id)] = {
        id,
        name: `User ${id}`,
        email: `user${id}@example.com`,
        age: 30,
        status: 'ACTIVE',
        createdAt: data.createdAt,
        updatedAt: data.createdAt,
        roleIds: [1],
        passwordHash: null,
      };
    }
    data.counters.users = 500;
    return data;
  }

  it('writes exactly JSON.stringify(data) from the file it read and the files it wrote', async () => {
    const file = join(dir, 'db.json');
    await writeFile(file, JSON.stringify(bigDataset()));
    const adapter = new DurableJsonFile(file);
    const data = (await adapter.read()) as ReturnType<typeof bigDataset>;
    for (let round = 0; round < 6; round++) {
      const user = data.users[String(1 + ((round * 97) % 500))] as { name: string };
      user.name = `Renamed in round ${round}, longer`;
      data.users[String(501 + round)] = {
        ...(data.users['1'] as object),
        id: 501 + round,
      } as never;
      if (round === 3) delete data.users['250'];
      await adapter.write(data);
      expect(await readFile(file, 'utf8')).toBe(JSON.stringify(data));
    }
  });

  it('writes every byte again when the file changed under it, or after a failed write', async () => {
    const file = join(dir, 'db.json');
    const adapter = new DurableJsonFile(file);
    const data = bigDataset();
    await adapter.write(data);
    // Someone else's file in its place: nothing of it is copied.
    await writeFile(file, JSON.stringify({ someone: 'else', padding: 'x'.repeat(50_000) }));
    (data.users['7'] as { name: string }).name = 'Seven';
    await adapter.write(data);
    expect(await readFile(file, 'utf8')).toBe(JSON.stringify(data));

    // A failed write (a directory where the file goes), then a good one.
    await rm(file);
    await mkdir(join(file, 'inside'), { recursive: true });
    await expect(adapter.write(data)).rejects.toThrow();
    await rm(file, { recursive: true });
    (data.users['8'] as { name: string }).name = 'Eight';
    await adapter.write(data);
    expect(await readFile(file, 'utf8')).toBe(JSON.stringify(data));
    (data.users['9'] as { name: string }).name = 'Nine';
    await adapter.write(data);
    expect(await readFile(file, 'utf8')).toBe(JSON.stringify(data));
  });

  it('writes every byte of each of several writes in flight at once', async () => {
    const file = join(dir, 'db.json');
    const adapter = new DurableJsonFile(file);
    const data = bigDataset();
    await adapter.write(data);
    const expected: string[] = [];
    const writes: Promise<void>[] = [];
    for (let i = 0; i < 4; i++) {
      (data.users[String(10 + i)] as { name: string }).name = `Concurrent ${i}`;
      expected.push(JSON.stringify(data));
      writes.push(adapter.write(data));
    }
    await Promise.all(writes);
    expect(await readFile(file, 'utf8')).toBe(expected[3]);
    (data.users['1'] as { name: string }).name = 'After';
    await adapter.write(data);
    expect(await readFile(file, 'utf8')).toBe(JSON.stringify(data));
  });
});
