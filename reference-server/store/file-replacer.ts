import { closeSync, fstatSync, readSync, statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/** `length` bytes from `offset` of the source file (see {@link ReplaceOptions.source}). */
export interface ByteRange {
  readonly offset: number;
  readonly length: number;
}

/** Options of {@link replaceFile}. */
export interface ReplaceOptions {
  /**
   * The file a previous `replaceFile` kept open: the {@link ByteRange} pieces are copied from
   * it. It must be {@link KeptFile.intact} (checked again by the worker before and after copying).
   */
  source?: KeptFile;
  /** Keep the new file open, to be the `source` of a later replace (see {@link KeptFile}). */
  keep?: boolean;
}

/**
 * A file `replaceFile` wrote and kept open (its descriptor, in the worker thread), so that a
 * later replace can copy unchanged byte ranges from it instead of the caller holding them.
 * Still readable after it is renamed over or deleted; {@link release} it once it is no longer
 * the source (a finalizer is no substitute: the descriptor outlives its owner otherwise).
 */
export interface KeptFile {
  /** Its size in bytes. */
  readonly size: number;
  /**
   * Whether it is still exactly what was written: same size and modification time (no one
   * wrote into it), and still the file at `file` (no one put another one there).
   */
  intact(file: string): boolean;
  /** Reads into `into` from `position` (on the calling thread); returns the bytes read. */
  read(into: Uint8Array, position: number): number;
  /** Closes it (after the jobs already sent); a no-op the second time. */
  release(): void;
}

/**
 * Makes `fd` (a file opened for reading, e.g. the one read at start) a {@link KeptFile}, to be
 * the `source` of a later replace; it is closed on release. The file's size, modification time
 * and identity are taken now: it is {@link KeptFile.intact} only as long as they hold.
 *
 * @example
 * const source = keepOpen(openSync(file, 'r'));
 */
export function keepOpen(fd: number): KeptFile {
  const s = fstatSync(fd, { bigint: true });
  const stat = {
    fd,
    size: Number(s.size),
    mtimeNs: String(s.mtimeNs),
    ino: String(s.ino),
    dev: String(s.dev),
  };
  return new Kept(undefined, nextKeptId--, stat);
}

/** Ids of files kept by keepOpen (negative: job ids, which name the files jobs keep, are not). */
let nextKeptId = -1;

/**
 * Replaces `file` with `pieces` (written one after the other) durably: a fresh temp file beside
 * it (`.NAME.RANDOM.tmp`, opened exclusively), written, fsynced, renamed over the target, and
 * the directory fsynced so the rename itself survives a crash; missing directories are
 * created. On failure the temp file is removed and the target is untouched (a failed fsync of
 * the directory leaves the new file in place, but the promise rejects all the same).
 *
 * The whole sequence runs with synchronous calls on one worker thread, shared by the process,
 * and the promise settles with one message back. Done with `fs/promises` on the main thread,
 * it was nine awaits in a row, and under load each waited for its turn behind the requests
 * being served (a flush of a 300 KB file took 20-40 ms of which about 5 ms was the disk's).
 * Pieces backed by a SharedArrayBuffer reach the worker without a copy; others are copied.
 * {@link ByteRange} pieces are copied from `options.source` (read into a reused buffer and
 * written), so that a caller need not keep in memory what the last file already holds. With
 * `keep`, it resolves with the new file kept open for that.
 *
 * @example
 * await replaceFile('/data/db.json', [Buffer.from('{"a":1}')]);
 * const kept = await replaceFile(file, [Buffer.from('{"a":[')], { keep: true });
 * await replaceFile(file, [{ offset: 0, length: 6 }, Buffer.from('2]}')], { source: kept });
 * kept?.release();
 */
export function replaceFile(
  file: string,
  pieces: readonly (Uint8Array | ByteRange)[],
  options: ReplaceOptions = {},
): Promise<KeptFile | undefined> {
  return replacer().run(file, pieces, options);
}

interface Job {
  resolve: (kept: KeptFile | undefined) => void;
  reject: (error: Error) => void;
}

/** What the worker recorded of a kept file (the modification time in ns, as a string). */
interface KeptStat {
  fd: number;
  size: number;
  mtimeNs: string;
  ino: string;
  dev: string;
}

interface Answer {
  id: number;
  kept?: KeptStat;
  error?: { name: string; message: string; code?: string; syscall?: string };
}

class Kept implements KeptFile {
  readonly size: number;
  #released = false;
  constructor(
    /** The replacer whose worker has it; none yet for a file from keepOpen until first used. */
    public owner: Replacer | undefined,
    readonly id: number,
    readonly stat: KeptStat,
  ) {
    this.size = stat.size;
  }

  get open(): boolean {
    return this.owner === undefined ? !this.#released : this.owner.holds(this);
  }

  intact(file: string): boolean {
    if (!this.open) return false;
    try {
      const now = fstatSync(this.stat.fd, { bigint: true });
      const there = statSync(file, { bigint: true, throwIfNoEntry: false });
      return (
        sameFile(now, this.stat) &&
        now.size === BigInt(this.stat.size) &&
        String(now.mtimeNs) === this.stat.mtimeNs &&
        there !== undefined &&
        sameFile(there, this.stat)
      );
    } catch {
      return false;
    }
  }

  read(into: Uint8Array, position: number): number {
    if (!this.open) throw new Error('KeptFile.read: the file is closed');
    let total = 0;
    while (total < into.length) {
      const read = readSync(this.stat.fd, into, total, into.length - total, position + total);
      if (read === 0) break;
      total += read;
    }
    return total;
  }

  release(): void {
    if (this.owner !== undefined) this.owner.release(this);
    else if (!this.#released) closeQuietly(this.stat.fd);
    this.#released = true;
  }
}

function sameFile(stat: { ino: bigint; dev: bigint }, kept: KeptStat): boolean {
  return String(stat.ino) === kept.ino && String(stat.dev) === kept.dev;
}

class Replacer {
  readonly #worker: Worker;
  readonly #jobs = new Map<number, Job>();
  /** Files kept open in the worker, by id; closed from here if the worker dies. */
  readonly #kept = new Map<number, Kept>();
  #nextId = 0;
  #dead = false;

  constructor() {
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      // The worker only moves bytes: a small heap is plenty.
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 2 },
      stdout: false,
      stderr: false,
    });
    this.#worker.unref(); // referenced only while a job is in flight (below)
    this.#worker.on('message', (answer: Answer | { released: number }) => {
      if ('released' in answer) closeQuietly(answer.released);
      else this.#settle(answer);
    });
    this.#worker.on('error', (error) => this.#die(error));
    this.#worker.on('exit', (code) => {
      this.#die(new Error(`file writer exited (${code})`));
      // The worker's descriptors are the process's: gone with the thread only if closed.
      for (const kept of this.#kept.values()) closeQuietly(kept.stat.fd);
      this.#kept.clear();
    });
  }

  run(
    file: string,
    pieces: readonly (Uint8Array | ByteRange)[],
    options: ReplaceOptions,
  ): Promise<KeptFile | undefined> {
    return new Promise<KeptFile | undefined>((resolve, reject) => {
      const { source, keep = false } = options;
      if (source instanceof Kept && source.owner === undefined && source.open) {
        // A file from keepOpen, used for the first time: the worker takes it over.
        source.owner = this;
        this.#kept.set(source.id, source);
        this.#worker.postMessage({ adopt: source.id, stat: source.stat });
      }
      if (source !== undefined && !(source instanceof Kept && this.holds(source))) {
        reject(
          Object.assign(new Error('replaceFile: the source file is closed'), { code: 'ESOURCE' }),
        );
        return;
      }
      const id = this.#nextId++;
      const transfer: ArrayBuffer[] = [];
      const sent = pieces.map((piece) => {
        if (!(piece instanceof Uint8Array)) return { offset: piece.offset, length: piece.length };
        if (piece.buffer instanceof SharedArrayBuffer) return piece;
        // A copy of exactly this piece, moved (a pooled Buffer would clone its whole pool).
        const copy = new Uint8Array(piece);
        transfer.push(copy.buffer);
        return copy;
      });
      this.#jobs.set(id, { resolve, reject });
      if (this.#jobs.size === 1) this.#worker.ref(); // keeps the process alive until it settles
      this.#worker.postMessage(
        { id, file, pieces: sent, source: (source as Kept | undefined)?.id, keep },
        transfer,
      );
    });
  }

  holds(kept: Kept): boolean {
    return kept.owner === this && this.#kept.get(kept.id) === kept;
  }

  release(kept: Kept): void {
    if (!this.holds(kept)) return;
    this.#kept.delete(kept.id);
    this.#worker.postMessage({ release: kept.id });
  }

  #settle(answer: Answer): void {
    const job = this.#jobs.get(answer.id);
    if (job === undefined) return;
    this.#jobs.delete(answer.id);
    if (this.#jobs.size === 0) this.#worker.unref();
    if (answer.error !== undefined) {
      job.reject(toError(answer.error));
      return;
    }
    let kept: Kept | undefined;
    if (answer.kept !== undefined) {
      kept = new Kept(this, answer.id, answer.kept);
      this.#kept.set(answer.id, kept);
    }
    job.resolve(kept);
  }

  /** Fails every job in flight; the next job starts a new worker. */
  #die(error: Error): void {
    if (this.#dead) return;
    this.#dead = true;
    if (current === this) current = undefined;
    for (const job of this.#jobs.values()) job.reject(error);
    this.#jobs.clear();
    void this.#worker.terminate();
  }
}

function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}

let current: Replacer | undefined;

function replacer(): Replacer {
  current ??= new Replacer();
  return current;
}

/** An Error like the one `fs` threw in the worker (message and code, for callers and logs). */
function toError(error: NonNullable<Answer['error']>): Error {
  const rebuilt = new Error(error.message);
  rebuilt.name = error.name;
  if (error.code !== undefined) Object.assign(rebuilt, { code: error.code });
  if (error.syscall !== undefined) Object.assign(rebuilt, { syscall: error.syscall });
  return rebuilt;
}

/*
 * The worker, as CommonJS source: evaluated from a string, so that it needs no file of its own
 * next to this module (it runs the same from dist/, under vitest, and in a bundle).
 */
const WORKER_SOURCE = `
'use strict';
const { parentPort } = require('node:worker_threads');
const fs = require('node:fs');
const path = require('node:path');
const { randomBytes } = require('node:crypto');

/** Pieces per writev call (at most IOV_MAX, 1024 on Linux). */
const PIECES_PER_WRITE = 1024;
/** Bytes copied from a source file per read. */
const COPY_BUFFER_BYTES = 1 << 20;
/** Some platforms (Windows) and file systems cannot open or fsync a directory. */
const DIRECTORY_SYNC_UNSUPPORTED = new Set(['EISDIR', 'EINVAL', 'EPERM']);

/** Files kept open for later jobs to copy from, by id: { fd, size, mtimeNs, ino, dev }. */
const kept = new Map();
let copyBuffer;

parentPort.on('message', (message) => {
  if (message.adopt !== undefined) {
    kept.set(message.adopt, { ...message.stat, adopted: true });
    return;
  }
  if (message.release !== undefined) {
    const file = kept.get(message.release);
    kept.delete(message.release);
    // A file adopted from the main thread is closed there (a descriptor belongs to the thread
    // that opened it, as far as Node is concerned).
    if (file !== undefined && file.adopted) parentPort.postMessage({ released: file.fd });
    else if (file !== undefined) closeQuietly(file.fd);
    return;
  }
  const { id, file, pieces, source, keep } = message;
  try {
    const stat = replace(file, pieces, source === undefined ? undefined : kept.get(source), keep);
    if (stat !== undefined) kept.set(id, stat);
    parentPort.postMessage({ id, kept: stat });
  } catch (error) {
    const e = error instanceof Error ? error : new Error(String(error));
    parentPort.postMessage({
      id,
      error: { name: e.name, message: e.message, code: e.code, syscall: e.syscall },
    });
  }
});

function replace(file, pieces, source, keep) {
  const directory = path.dirname(file);
  // Same directory as the target: a rename is only atomic within one file system.
  const temp = path.join(directory, '.' + path.basename(file) + '.' + randomBytes(6).toString('hex') + '.tmp');
  let fd;
  let stat;
  try {
    // 'wx': a name collision fails loudly instead of two writers sharing one temp file; '+'
    // to read it back as the source of the next job, when kept.
    const flags = keep ? 'wx+' : 'wx';
    try {
      fd = fs.openSync(temp, flags);
    } catch (error) {
      if (error.code !== 'ENOENT') throw error;
      fs.mkdirSync(directory, { recursive: true });
      fd = fs.openSync(temp, flags);
    }
    if (source !== undefined) checkSource(source);
    let from = 0;
    for (let i = 0; i <= pieces.length; i++) {
      const piece = pieces[i];
      if (i < pieces.length && piece instanceof Uint8Array && i - from < PIECES_PER_WRITE) continue;
      if (i > from) writeAll(fd, pieces.slice(from, i));
      from = i;
      if (i < pieces.length && !(piece instanceof Uint8Array)) {
        copyRange(source, piece, fd);
        from = i + 1;
      }
    }
    // Nothing written into it while it was copied from (the copy would be torn).
    if (source !== undefined) checkSource(source);
    fs.fsyncSync(fd);
    if (keep) {
      const s = fs.fstatSync(fd, { bigint: true });
      stat = { fd, size: Number(s.size), mtimeNs: String(s.mtimeNs), ino: String(s.ino), dev: String(s.dev) };
    } else {
      fs.closeSync(fd);
    }
    fd = undefined;
    fs.renameSync(temp, file);
    syncDirectory(directory);
  } catch (error) {
    if (fd !== undefined) closeQuietly(fd);
    if (stat !== undefined) closeQuietly(stat.fd);
    try {
      // After a rename (a failed fsync of the directory) this finds nothing to remove.
      fs.rmSync(temp, { force: true });
    } catch {}
    throw error;
  }
  return stat;
}

/** Throws unless the kept file is still exactly what was written (see KeptFile.intact). */
function checkSource(source) {
  if (source === undefined) throw sourceError('the file to copy from is closed');
  const s = fs.fstatSync(source.fd, { bigint: true });
  if (
    Number(s.size) !== source.size ||
    String(s.mtimeNs) !== source.mtimeNs ||
    String(s.ino) !== source.ino ||
    String(s.dev) !== source.dev
  )
    throw sourceError('the file to copy from changed since it was written');
}

function sourceError(message) {
  return Object.assign(new Error(message), { code: 'ESOURCE' });
}

/** Copies range.length bytes at range.offset of the source to fd (at its position). */
function copyRange(source, range, fd) {
  if (source === undefined) throw sourceError('a range to copy, but no file to copy from');
  if (range.offset < 0 || range.length < 0 || range.offset + range.length > source.size)
    throw sourceError('a range beyond the end of the file to copy from');
  copyBuffer ??= Buffer.allocUnsafeSlow(COPY_BUFFER_BYTES);
  let at = range.offset;
  const end = range.offset + range.length;
  while (at < end) {
    const read = fs.readSync(source.fd, copyBuffer, 0, Math.min(copyBuffer.length, end - at), at);
    if (read === 0) throw sourceError('the file to copy from ended early');
    writeAll(fd, [copyBuffer.subarray(0, read)]);
    at += read;
  }
}

/** Writes every byte of pieces in order: one writev, then whatever a short write left. */
function writeAll(fd, pieces) {
  let total = 0;
  for (const piece of pieces) total += piece.length;
  const written = fs.writevSync(fd, pieces);
  if (written === total) return;
  const rest = Buffer.concat(pieces).subarray(written);
  for (let offset = 0; offset < rest.length; ) offset += fs.writeSync(fd, rest, offset);
}

function syncDirectory(directory) {
  let fd;
  try {
    fd = fs.openSync(directory, 'r');
    fs.fsyncSync(fd);
  } catch (error) {
    if (!DIRECTORY_SYNC_UNSUPPORTED.has(error.code)) throw error;
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}

function closeQuietly(fd) {
  try {
    fs.closeSync(fd);
  } catch {}
}
`;
