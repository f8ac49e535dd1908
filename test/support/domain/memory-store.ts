import type { Dataset } from '../../../core/domain/dataset.js';
import { StoreUnavailableError, type Store } from '../../../core/domain/store.js';

/**
 * A test-only Store over a plain object. It honours the interface (the callback runs alone and
 * synchronously; the promise settles afterwards; a callback that throws leaves nothing changed)
 * and goes further to catch domain bugs: a callback that changed data *before* throwing fails
 * the test loudly instead of being silently rolled back. It counts writes so tests can assert
 * that a no-op wrote nothing.
 *
 * @example
 * const store = new MemoryStore(dataset);
 * await store.write((data) => void (data.counters.users += 1));
 * store.writes; // 1
 */
export class MemoryStore implements Store {
  #data: Dataset;
  #closed = false;
  /** Writes that completed (callbacks that returned). */
  writes = 0;

  constructor(initial: Dataset) {
    this.#data = structuredClone(initial);
  }

  get data(): Dataset {
    return this.#data;
  }

  async write<T>(mutate: (data: Dataset) => T): Promise<T> {
    if (this.#closed) throw new StoreUnavailableError('store is closed');
    const before = JSON.stringify(this.#data);
    let result: T;
    try {
      result = mutate(this.#data);
    } catch (error) {
      if (JSON.stringify(this.#data) !== before) {
        this.#data = JSON.parse(before) as Dataset;
        throw new Error('write callback changed data before it threw', { cause: error });
      }
      throw error;
    }
    this.writes += 1;
    return result;
  }

  async close(): Promise<void> {
    this.#closed = true;
  }
}
