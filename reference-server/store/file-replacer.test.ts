import { openSync } from 'node:fs';
import { appendFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { keepOpen, replaceFile } from './file-replacer.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'apikit-replace-'));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

function shared(text: string): Buffer {
  const bytes = Buffer.from(new SharedArrayBuffer(Buffer.byteLength(text)));
  bytes.write(text);
  return bytes;
}

describe('replaceFile', () => {
  it('writes the pieces in order, shared, pooled and plain alike, over the old file', async () => {
    const file = join(dir, 'db.json');
    await writeFile(file, 'old content, longer than the new one');
    const pooled = Buffer.from('[1,'); // a slice of Node's shared pool
    await replaceFile(file, [pooled, shared('"zwei",'), new Uint8Array([0x33]), shared(']')]);
    expect(await readFile(file, 'utf8')).toBe('[1,"zwei",3]');
    expect(await readdir(dir)).toEqual(['db.json']);
  });

  it('writes more pieces than one writev takes, byte for byte', async () => {
    const file = join(dir, 'many.txt');
    const pieces = Array.from({ length: 2500 }, (_, i) => shared(`${i},`));
    await replaceFile(file, pieces);
    expect(await readFile(file, 'utf8')).toBe(pieces.map((p) => p.toString()).join(''));
  });

  it('creates missing directories', async () => {
    const file = join(dir, 'a', 'b', 'db.json');
    await replaceFile(file, [Buffer.from('{}')]);
    expect(await readFile(file, 'utf8')).toBe('{}');
  });

  it('leaves the shared pieces as they were (read, never moved away)', async () => {
    const piece = shared('kept');
    await replaceFile(join(dir, 'x'), [piece]);
    expect(piece.toString()).toBe('kept');
  });

  it('rejects with the file system error and its code, leaving no temp file behind', async () => {
    // A non-empty directory where the file should be: the rename fails.
    const blocked = join(dir, 'blocked');
    await mkdir(join(blocked, 'inside'), { recursive: true });
    const failed = replaceFile(blocked, [Buffer.from('{}')]);
    await expect(failed).rejects.toThrow(/rename/);
    await expect(failed).rejects.toMatchObject({ code: expect.stringMatching(/^E[A-Z]+$/) });
    expect(await readdir(dir)).toEqual(['blocked']);
    expect(await readdir(blocked)).toEqual(['inside']);
  });

  it('serves writes to several files at once, each complete', async () => {
    const files = Array.from({ length: 20 }, (_, i) => join(dir, `f${i}.json`));
    await Promise.all(files.map((file, i) => replaceFile(file, [shared(`{"n":${i}}`)])));
    for (const [i, file] of files.entries())
      expect(await readFile(file, 'utf8')).toBe(`{"n":${i}}`);
  });
});

describe('replaceFile with a kept source', () => {
  it('copies byte ranges from the file it kept, and keeps the new one', async () => {
    const file = join(dir, 'db.json');
    const first = await replaceFile(file, [Buffer.from('{"a":[1,2],'), shared('"b":3}')], {
      keep: true,
    });
    expect(first?.size).toBe(17);
    expect(first?.intact(file)).toBe(true);
    const second = await replaceFile(
      file,
      [{ offset: 0, length: 9 }, Buffer.from(',4]'), { offset: 10, length: 7 }],
      { source: first, keep: true },
    );
    expect(await readFile(file, 'utf8')).toBe('{"a":[1,2,4],"b":3}');
    expect(first?.intact(file)).toBe(false); // no longer the file there
    first?.release();
    expect(second?.intact(file)).toBe(true);
    second?.release();
    expect(second?.intact(file)).toBe(false);
    expect(await readdir(dir)).toEqual(['db.json']);
  });

  it('copies from a file opened elsewhere (keepOpen), read on this thread too', async () => {
    const file = join(dir, 'db.json');
    await writeFile(file, 'hello world');
    const source = keepOpen(openSync(file, 'r'));
    const into = Buffer.alloc(5);
    expect(source.read(into, 6)).toBe(5);
    expect(into.toString()).toBe('world');
    await replaceFile(file, [{ offset: 6, length: 5 }, Buffer.from('!')], { source });
    expect(await readFile(file, 'utf8')).toBe('world!');
    source.release();
  });

  it('refuses to copy from a file written into since it was kept, and from a released one', async () => {
    const file = join(dir, 'db.json');
    const kept = await replaceFile(file, [Buffer.from('0123456789')], { keep: true });
    await appendFile(file, 'more');
    expect(kept?.intact(file)).toBe(false);
    const failed = replaceFile(file, [{ offset: 0, length: 4 }], { source: kept });
    await expect(failed).rejects.toMatchObject({ code: 'ESOURCE' });
    expect(await readFile(file, 'utf8')).toBe('0123456789more');
    kept?.release();
    await expect(
      replaceFile(file, [{ offset: 0, length: 4 }], { source: kept }),
    ).rejects.toMatchObject({ code: 'ESOURCE' });
    expect(await readdir(dir)).toEqual(['db.json']);
  });
});
