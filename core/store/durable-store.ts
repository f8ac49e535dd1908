import type { Adapter } from 'lowdb';
import type { Dataset } from '../domain/dataset.js';
import { StoreUnavailableError, type Store } from '../domain/store.js';

/** Options of {@link createDurableStore}. */
export interface DurableStoreOptions {
  /**
   * Where the data set is persisted. Its `write` must take its snapshot synchronously, before
   * it first yields (as `DurableJsonFile` and `MemoryAdapter` do): the store goes on mutating
   * the live data while a flush is in flight.
   */
  adapter: Adapter<Dataset>;
  /** The data set of a first start, when the adapter holds nothing yet. */
  seed: () => Dataset | Promise<Dataset>;
  /** What a {@link StoreUnavailableError} tells clients to wait (seconds, default 1). */
  retryAfterSeconds?: number;
}

/**
 * Opens a group-commit store over a lowdb adapter: reads the data set (or seeds it and writes
 * the seed before resolving), then serves writes that resolve only once durable. Runs wherever
 * the adapter runs (Node with `DurableJsonFile`, a browser with `MemoryAdapter`).
 *
 * @example
 * const store = await createDurableStore({ adapter: new MemoryAdapter(), seed: demoDataset });
 * const id = await store.write((data) => ++data.counters.users);
 */
export async function createDurableStore(options: DurableStoreOptions): Promise<Store> {
  const { adapter, seed, retryAfterSeconds = 1 } = options;
  let data = await adapter.read();
  if (data === null) {
    data = await seed();
    await adapter.write(data);
  }
  return new DurableStore(adapter, data, retryAfterSeconds);
}

/**
 * How long the next flush may wait for writes to gather, as a share of the last flush's time
 * (and at most {@link GATHER_MAX_MS}): see `#gatherWait`.
 */
const GATHER_SHARE = 0.25;
const GATHER_MAX_MS = 25;

/** A write applied in memory, waiting for the flush that makes it durable. */
interface Waiter {
  resolve: () => void;
  reject: (error: unknown) => void;
}

/*
 * lowdb's `Low` is not used: its `read()` replaces `db.data` with a new object, but callers
 * hold `store.data`, so a rollback must refill the same object. And `Low.update` flushes once
 * per call, where group commit needs one flush for many calls. The adapter is all we need.
 */
class DurableStore implements Store {
  readonly #data: Dataset;
  readonly #adapter: Adapter<Dataset>;
  readonly #retryAfterSeconds: number;
  /** Writes applied since the in-flight flush took its snapshot: the next flush's batch. */
  #pending: Waiter[] = [];
  /** The one flush in flight; it never rejects (failures go to its waiters). */
  #flushing: Promise<void> | null = null;
  /** The reload of the durable copy under way after a failed flush. */
  #restoring: Promise<void> | null = null;
  /** True from a failed flush until a reload succeeds: `data` may hold changes not on disk. */
  #stale = false;
  #closed = false;
  /**
   * Writes expected in the next batch (the last batch made durable and the writes that were
   * waiting when it was), when that flush ended, and how long it took (ms).
   */
  #expected = 0;
  #lastEnd = 0;
  #lastDuration = 0;
  /** The flush waiting for writes to gather (see `#gatherWait`). */
  #gathering: ReturnType<typeof setTimeout> | undefined;

  constructor(adapter: Adapter<Dataset>, data: Dataset, retryAfterSeconds: number) {
    this.#adapter = adapter;
    this.#data = data;
    this.#retryAfterSeconds = retryAfterSeconds;
  }

  /**
   * The live data set, except while memory may still hold the changes of a failed flush (the
   * reload of the durable copy has not succeeded yet): then reading throws (503), since a
   * client must not read a change it was refused, and retries the reload.
   */
  get data(): Dataset {
    if (this.#stale) {
      this.#restore().catch(ignore);
      throw new StoreUnavailableError(
        'the data set is being reloaded after a failed save',
        this.#retryAfterSeconds,
      );
    }
    return this.#data;
  }

  write<T>(mutate: (data: Dataset) => T): Promise<T> {
    if (this.#closed) {
      return Promise.reject(new StoreUnavailableError('store is closed', this.#retryAfterSeconds));
    }
    return this.#apply(mutate);
  }

  async close(): Promise<void> {
    this.#closed = true;
    // Nothing more can join the batch a flush is waiting for.
    this.#startFlush(true);
    // No write can join once closed, and each flush or reload retires writes that were already
    // accepted, so this settles after the last of them.
    while (this.#flushing !== null || this.#restoring !== null) {
      await this.#flushing;
      await this.#restoring?.catch(ignore);
    }
  }

  /** Not checked for `closed`: writes accepted before `close` but waiting for a reload still run. */
  #apply<T>(mutate: (data: Dataset) => T): Promise<T> {
    if (this.#stale || this.#restoring !== null) {
      return this.#restore().then(() => this.#apply(mutate));
    }
    let value: T;
    try {
      // Runs now, synchronously: writes are serialized by construction and later writes see
      // earlier ones. A callback that throws must not have changed anything (the Store
      // contract); checking that would cost a copy of the whole data set per write.
      value = mutate(this.#data);
    } catch (error) {
      return Promise.reject(error);
    }
    if (isThenable(value)) {
      // Its changes after the first await would escape serialization and durability.
      return Promise.reject(new TypeError('store.write: mutate must be synchronous'));
    }
    return new Promise<T>((resolve, reject) => {
      this.#pending.push({ resolve: () => resolve(value), reject });
      this.#startFlush();
    });
  }

  #startFlush(now = false): void {
    if (this.#flushing !== null || this.#pending.length === 0) return;
    const wait = now ? 0 : this.#gatherWait();
    if (wait > 0) {
      this.#gathering ??= setTimeout(() => {
        this.#gathering = undefined;
        this.#startFlush(true);
      }, wait);
      return;
    }
    clearTimeout(this.#gathering);
    this.#gathering = undefined;
    const batch = this.#pending;
    this.#pending = [];
    this.#flushing = this.#flush(batch);
  }

  /**
   * How long (ms) the next flush should wait for more writes, 0 to start now. A flush answers
   * its whole batch at once, and under steady concurrency those clients come back with their
   * next writes a moment later: started at once, the next flush would carry the one or two
   * writes that arrived during the last flush, and the rest would wait a whole flush more
   * behind it (batches of 1 and 49 in turn at 50 clients, each flush a full file write). So
   * the next flush waits until as many writes are pending as there were writers at the end
   * of the last flush (its batch and those already waiting), but no longer than a quarter of
   * the last flush's time (a flush of the 100,000-user file takes 100 ms; of a small one, so
   * little that it never waits). A lone client, whose last batch was its own write, never waits.
   */
  #gatherWait(): number {
    // Closing: nothing more can join, and close() waits only for flushes under way.
    if (this.#closed || this.#pending.length >= this.#expected) return 0;
    const window = Math.min(GATHER_MAX_MS, this.#lastDuration * GATHER_SHARE);
    const left = this.#lastEnd + window - performance.now();
    // setTimeout cannot wait less than a millisecond.
    return left >= 1 ? left : 0;
  }

  async #flush(batch: Waiter[]): Promise<void> {
    const started = performance.now();
    let failure: { cause: unknown } | null = null;
    try {
      // The adapter snapshots `data` inside this call (a synchronous throw becomes a rejection),
      // so writes applied from here on belong to the next flush.
      await new Promise<void>((resolve) => resolve(this.#adapter.write(this.#data)));
    } catch (cause) {
      failure = { cause };
    }
    if (failure === null) {
      this.#flushing = null;
      this.#expected = batch.length + this.#pending.length;
      this.#lastEnd = performance.now();
      this.#lastDuration = this.#lastEnd - started;
      for (const waiter of batch) waiter.resolve();
      this.#startFlush();
      return;
    }
    // The writes applied while this flush was in flight are built on the failed ones, so they
    // fail too, and memory goes back to exactly what is durable before anyone hears of it: a
    // client answered 503 must not then read the change it was refused.
    const error = new StoreUnavailableError(
      'the data set could not be saved',
      this.#retryAfterSeconds,
      { cause: failure.cause },
    );
    const doomed = [...batch, ...this.#pending];
    this.#pending = [];
    this.#stale = true;
    // A failed reload leaves `#stale` set, so the next write tries again.
    await this.#restore().catch(ignore);
    for (const waiter of doomed) waiter.reject(error);
    this.#flushing = null;
    // Writes that waited for the reload may have been applied meanwhile.
    this.#startFlush();
  }

  /** Joins the reload under way, or starts one; rejects with StoreUnavailableError if it fails. */
  #restore(): Promise<void> {
    if (this.#restoring === null) {
      const attempt = this.#reload().finally(() => {
        this.#restoring = null;
      });
      this.#restoring = attempt;
    }
    return this.#restoring;
  }

  async #reload(): Promise<void> {
    try {
      const durable = await this.#adapter.read();
      if (durable === null) throw new Error('the durable copy of the data set is gone');
      replaceContents(this.#data, durable);
      this.#stale = false;
    } catch (cause) {
      throw new StoreUnavailableError(
        'the data set could not be reloaded after a failed save',
        this.#retryAfterSeconds,
        { cause },
      );
    }
  }
}

/** Refills `target` with `source`'s properties, keeping `target`'s identity. */
function replaceContents(target: Dataset, source: Dataset): void {
  const record = target as unknown as Record<string, unknown>;
  for (const key of Object.keys(record)) delete record[key];
  Object.assign(target, source);
}

function isThenable(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

function ignore(): void {}
