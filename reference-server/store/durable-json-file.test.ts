import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DurableJsonFile } from './durable-json-file.js';
import { emptyDataset } from './empty-dataset.js';

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
