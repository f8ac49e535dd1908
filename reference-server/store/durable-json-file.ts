import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';
import type { Dataset } from '../domain/dataset.js';
import { createFragmentSerializer } from './fragment-serializer.js';

/**
 * A lowdb adapter for a JSON file that is never torn and never loses an acknowledged write:
 * each write goes to a fresh temp file beside the target, is fsynced, renamed over the target
 * (an atomic replace), and the directory is fsynced so the rename itself survives a crash.
 * lowdb's own `JSONFile` renames but never fsyncs, so a power cut can lose or empty the file.
 *
 * @example
 * const store = await createDurableStore({ adapter: new DurableJsonFile('data/db.json'), seed });
 */
export class DurableJsonFile implements Adapter<Dataset> {
  readonly file: string;
  private swept = false;
  readonly #serialize = createFragmentSerializer();

  constructor(file: string) {
    this.file = file;
  }

  /** The parsed file; null when it does not exist; throws (naming it) when it does not parse. */
  async read(): Promise<Dataset | null> {
    if (!this.swept) {
      this.swept = true;
      await this.sweepTempFiles();
    }
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return null;
      throw error;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (cause) {
      throw new Error(`${this.file} is not valid JSON (${describe(cause)}); ${REFUSAL}`, { cause });
    }
    // `null` here would read as "no file" and get the file replaced with the seed.
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw new Error(`${this.file} does not hold a JSON object; ${REFUSAL}`);
    }
    // Trusted beyond this: the file is ours, and schemaVersion leaves room for migrations.
    return parsed as Dataset;
  }

  /**
   * Removes temp files that a killed process left mid-write. They are never read (the rename
   * is the commit point), but each is as large as the store. Runs once, on the first read,
   * before this process writes anything.
   */
  private async sweepTempFiles(): Promise<void> {
    const prefix = `.${basename(this.file)}.`;
    const names = await readdir(dirname(this.file)).catch(() => [] as string[]);
    await Promise.all(
      names
        .filter((name) => name.startsWith(prefix) && name.endsWith('.tmp'))
        .map((name) => rm(join(dirname(this.file), name), { force: true }).catch(() => undefined)),
    );
  }

  async write(data: Dataset): Promise<void> {
    // Before the first await: the snapshot is the data at the moment of the call, whatever the
    // caller changes while the bytes are on their way. Compact: the file may hold 100,000 users,
    // so it is made of remembered chunks of records (only changed chunks are serialized again)
    // and written a chunk at a time, never held as one string or one buffer.
    const parts = this.#serialize(data);
    const directory = dirname(this.file);
    // Same directory as the target: a rename is only atomic within one file system.
    const temp = join(directory, `.${basename(this.file)}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await mkdir(directory, { recursive: true });
      // 'wx': a name collision fails loudly instead of two writers sharing one temp file.
      const handle = await open(temp, 'wx');
      try {
        for (let i = 0; i < parts.length; i += PIECES_PER_WRITE)
          await writeAll(handle, parts.slice(i, i + PIECES_PER_WRITE));
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, this.file);
    } catch (error) {
      await rm(temp, { force: true }).catch(() => {});
      throw error;
    }
    await syncDirectory(directory);
  }
}

/** Pieces per writev call (at most IOV_MAX, 1024 on Linux). */
const PIECES_PER_WRITE = 1024;

/** Writes every byte of `pieces` in order: one writev, then whatever a short write left. */
async function writeAll(handle: FileHandle, pieces: Buffer[]): Promise<void> {
  const total = pieces.reduce((sum, piece) => sum + piece.length, 0);
  const written = (await handle.writev(pieces)).bytesWritten;
  if (written === total) return;
  const rest = Buffer.concat(pieces).subarray(written);
  for (let offset = 0; offset < rest.length;) {
    const { bytesWritten } = await handle.write(rest, offset, rest.length - offset);
    offset += bytesWritten;
  }
}

const REFUSAL = 'refusing to replace it with demo data: repair the file or move it away';

/** Some platforms (Windows) and file systems cannot open or fsync a directory. */
const DIRECTORY_SYNC_UNSUPPORTED = new Set(['EISDIR', 'EINVAL', 'EPERM']);

async function syncDirectory(directory: string): Promise<void> {
  try {
    const handle = await open(directory, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    if (!DIRECTORY_SYNC_UNSUPPORTED.has(errorCode(error) ?? '')) throw error;
  }
}

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
