import type { Adapter } from 'lowdb';

/** Options of {@link FailingAdapter}. */
export interface FailingAdapterOptions {
  /** How long every write takes at least (ms), to let writes pile up behind a flush. */
  delayMs?: number;
}

/**
 * A test double for a disk that fails: wraps a real adapter, and lets a test make its writes
 * (and reads) fail on demand, slow them down, and count them. A failing write never reaches
 * the wrapped adapter, like a full disk that leaves the old file in place.
 *
 * @example
 * const disk = new FailingAdapter(new MemoryAdapter<Dataset>(), { delayMs: 5 });
 * const store = await createDurableStore({ adapter: disk, seed });
 * disk.failWrites(); // next flushes reject: writes answer 503
 * disk.healWrites(); // the store recovers by itself
 */
export class FailingAdapter<T> implements Adapter<T> {
  /** Calls of `write` so far, failed ones included. */
  writeCount = 0;
  /** Calls of `read` so far, failed ones included. */
  readCount = 0;
  delayMs: number;
  readonly #inner: Adapter<T>;
  #writeFailure: Error | null = null;
  #readFailure: Error | null = null;

  constructor(inner: Adapter<T>, options: FailingAdapterOptions = {}) {
    this.#inner = inner;
    this.delayMs = options.delayMs ?? 0;
  }

  /** Makes every later write reject with `error` (by default an ENOSPC "disk full"). */
  failWrites(error: Error = diskFullError()): void {
    this.#writeFailure = error;
  }

  /** Lets writes through again. */
  healWrites(): void {
    this.#writeFailure = null;
  }

  /** Makes every later read reject with `error` (by default an EIO). */
  failReads(error: Error = ioError()): void {
    this.#readFailure = error;
  }

  /** Lets reads through again. */
  healReads(): void {
    this.#readFailure = null;
  }

  async read(): Promise<T | null> {
    this.readCount += 1;
    if (this.#readFailure !== null) throw this.#readFailure;
    return this.#inner.read();
  }

  async write(data: T): Promise<void> {
    this.writeCount += 1;
    // Decided when the write starts, so a test knows which flush fails.
    const failure = this.#writeFailure;
    // The inner adapter is called at once so that it snapshots the data at this moment.
    const written = failure === null ? this.#inner.write(data) : null;
    // Marked handled now: it may reject during the delay, before it is awaited below.
    written?.catch(() => {});
    if (this.delayMs > 0) await sleep(this.delayMs);
    if (failure !== null) throw failure;
    await written;
  }
}

function diskFullError(): Error {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
}

function ioError(): Error {
  return Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
