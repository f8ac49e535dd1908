import type { Dataset } from './dataset.js';

/**
 * Where the domain keeps its data set. Implementations: the durable group-commit store over a
 * lowdb adapter (JSON file on disk, or memory for tests and the mocks).
 *
 * Reads go straight to `data`. Every change goes through `write`, whose callback runs alone
 * (it is synchronous, so no other change interleaves), must check every rule *before* it
 * changes anything (a callback that throws must leave `data` untouched), and whose promise
 * settles only once the change is durable.
 */
export interface Store {
  /**
   * The live data set. Read it freely; change it only inside `write`. Throws
   * {@link StoreUnavailableError} while a failed save is not yet rolled back.
   */
  readonly data: Dataset;
  /**
   * Runs `mutate` on the data set, then resolves with its result once the change is on disk.
   * Rejects with what `mutate` threw (nothing changed), or with {@link StoreUnavailableError}
   * when persisting failed; the change is then rolled back.
   */
  write<T>(mutate: (data: Dataset) => T): Promise<T>;
  /** Waits for pending writes, then refuses new ones. */
  close(): Promise<void>;
}

/** The store cannot persist right now (disk full, read-only, closing): answer 503. */
export class StoreUnavailableError extends Error {
  override name = 'StoreUnavailableError';
  constructor(
    message: string,
    /** Seconds a client should wait before trying again. */
    readonly retryAfterSeconds = 1,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
