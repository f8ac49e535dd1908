import { closeSync, fstatSync, readSync, statSync } from 'node:fs';

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

/** What the worker recorded of a kept file (the modification time in ns, as a string). */
export interface KeptStat {
  fd: number;
  size: number;
  mtimeNs: string;
  ino: string;
  dev: string;
}

/** Who holds kept files in a worker (the Replacer): asked whether one is still open. */
export interface KeptOwner {
  holds(kept: Kept): boolean;
  release(kept: Kept): void;
}

/** A {@link KeptFile}: its descriptor, and the replacer whose worker holds it. */
export class Kept implements KeptFile {
  readonly size: number;
  #released = false;
  constructor(
    /** The replacer whose worker has it; none yet for a file from keepOpen until first used. */
    public owner: KeptOwner | undefined,
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

/** Closes `fd`, if it is not closed already. */
export function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already closed
  }
}
