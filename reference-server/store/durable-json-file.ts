import { readdir, readFile, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';
import type { Dataset } from '../domain/dataset.js';
import { replaceFile } from './file-replacer.js';
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
  readonly #serialize = createFragmentSerializer({ sharedMemory: true });

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

  write(data: Dataset): Promise<void> {
    // Before returning: the snapshot is the data at the moment of the call, whatever the caller
    // changes while the bytes are on their way. Compact: the file may hold 100,000 users, so it
    // is made of remembered chunks of records (only changed chunks are serialized again) and
    // written a chunk at a time, never held as one string or one buffer. The chunks live in
    // shared memory: the worker thread that replaces the file reads them where they are.
    let parts: Buffer[];
    try {
      parts = this.#serialize(data);
    } catch (error) {
      return Promise.reject(error);
    }
    return replaceFile(this.file, parts);
  }
}

const REFUSAL = 'refusing to replace it with demo data: repair the file or move it away';

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
