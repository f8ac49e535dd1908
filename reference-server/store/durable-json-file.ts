import { close, open } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { promisify } from 'node:util';
import { basename, dirname, join } from 'node:path';
import type { Adapter } from 'lowdb';
import type { Dataset } from '../../core/domain/dataset.js';
import { keepOpen, replaceFile, type KeptFile } from './file-replacer.js';
import { createFragmentSerializer, type SerializedFile } from './fragment-serializer.js';

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
  readonly #serializer = createFragmentSerializer();
  /** The file last written (or read), kept open: unchanged chunks are copied from it. */
  #source: KeptFile | undefined;
  /** Whether `#source` is the file read (its chunks are looked for) rather than written. */
  #sourceWasRead = false;
  /** Writes sent to the worker and not settled yet. */
  #inFlight = 0;

  constructor(file: string) {
    this.file = file;
  }

  /** The parsed file; null when it does not exist; throws (naming it) when it does not parse. */
  async read(): Promise<Dataset | null> {
    if (!this.swept) {
      this.swept = true;
      await this.sweepTempFiles();
    }
    let fd: number;
    try {
      // Kept open: the first write copies from it the chunks it still holds byte for byte (it
      // compares them, so a change after the open costs copies, never a wrong byte). A bare
      // descriptor, not a FileHandle, which closes itself when collected.
      fd = await openFile(this.file, 'r');
    } catch (error) {
      if (errorCode(error) === 'ENOENT') return null;
      throw error;
    }
    let text: string;
    let kept: KeptFile | undefined;
    try {
      kept = keepOpen(fd);
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if (kept !== undefined) kept.release();
      else close(fd, () => {});
      throw error;
    }
    this.#source?.release();
    this.#source = kept;
    this.#sourceWasRead = true;
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
    // is made of chunks of records, and only the chunks that changed since the last file are
    // serialized and encoded again; the others are copied from that file (kept open by the
    // worker thread that replaces the file), so the file's bytes are never held in memory.
    // Copying needs the last file intact and no other write in flight (its file is not the
    // last one yet, and it may fail): otherwise every byte is encoded, as on the first write.
    const source =
      this.#inFlight === 0 && this.#source?.intact(this.file) === true ? this.#source : undefined;
    let file: SerializedFile;
    try {
      file =
        source !== undefined && this.#sourceWasRead
          ? this.#serializer.serialize(data, false, source)
          : this.#serializer.serialize(data, source !== undefined);
    } catch (error) {
      return Promise.reject(error);
    }
    this.#inFlight++;
    return replaceFile(this.file, file.pieces, { source, keep: true }).then(
      (kept) => {
        this.#inFlight--;
        this.#source?.release();
        this.#source = kept;
        this.#sourceWasRead = false;
        file.commit();
      },
      (error: unknown) => {
        this.#inFlight--;
        // Whatever is on disk now, the next write starts afresh from the data alone.
        this.#source?.release();
        this.#source = undefined;
        this.#serializer.forget();
        throw error;
      },
    );
  }
}

const openFile = promisify(open);

const REFUSAL = 'refusing to replace it with demo data: repair the file or move it away';

function errorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
