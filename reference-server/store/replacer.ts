import { Worker } from 'node:worker_threads';
import { closeQuietly, Kept, type KeptFile, type KeptOwner, type KeptStat } from './kept-file.js';
import type { ByteRange, ReplaceOptions } from './replace-options.js';
import { WORKER_SOURCE } from './replacer-worker-source.js';

interface Job {
  resolve: (kept: KeptFile | undefined) => void;
  reject: (error: Error) => void;
}

interface Answer {
  id: number;
  kept?: KeptStat;
  error?: { name: string; message: string; code?: string; syscall?: string };
}

/** The one worker thread that replaces files, and the jobs and kept files it has. */
export class Replacer implements KeptOwner {
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

let current: Replacer | undefined;

/** The process's replacer, started on first use and again after its worker died. */
export function replacer(): Replacer {
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
