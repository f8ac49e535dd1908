import type { Dataset } from '../../../core/domain/dataset.js';
import { StoreUnavailableError, type Store } from '../../../core/domain/store.js';

/** A Store for the auth tests, with the knobs those tests need. */
export interface AuthMemoryStore extends Store {
  /** How many writes completed (durably, in this store's terms). */
  readonly writes: number;
  /** Makes the next write fail to persist: it rejects with StoreUnavailableError, rolled back. */
  failNextWrite(): void;
}

/**
 * An in-memory Store that keeps the Store contract strictly enough to catch a service that
 * breaks it: writes are serialized, a mutate that throws must have left the data untouched
 * (else the write fails loudly), and a failed persist rolls memory back to what is durable.
 *
 * @example
 * const store = createAuthMemoryStore(dataset);
 * await store.write((data) => { data.users['1']!.name = 'Ada'; });
 */
export function createAuthMemoryStore(initial: Dataset): AuthMemoryStore {
  const data = structuredClone(initial);
  /** What the last successful write made durable: a failed persist goes back to it. */
  let durable = structuredClone(initial);
  let queue: Promise<unknown> = Promise.resolve();
  let writes = 0;
  let failNext = false;
  let closed = false;

  function restore(snapshot: Dataset): void {
    for (const key of Object.keys(data)) delete (data as unknown as Record<string, unknown>)[key];
    Object.assign(data, structuredClone(snapshot));
  }

  function runWrite<T>(mutate: (data: Dataset) => T): T {
    if (closed) throw new StoreUnavailableError('store is closed');
    const before = JSON.stringify(data);
    const snapshot = structuredClone(data);
    let result: T;
    try {
      result = mutate(data);
    } catch (error) {
      if (JSON.stringify(data) !== before) {
        restore(snapshot);
        throw new Error('Store contract broken: mutate changed the data and then threw', {
          cause: error,
        });
      }
      throw error;
    }
    if (failNext) {
      failNext = false;
      // As the durable store does: memory goes back to what is durable, changes made before
      // this write (the repository applies a transaction's changes, then writes) included.
      restore(durable);
      throw new StoreUnavailableError('simulated persist failure');
    }
    durable = structuredClone(data);
    writes += 1;
    return result;
  }

  return {
    data,
    get writes() {
      return writes;
    },
    failNextWrite() {
      failNext = true;
    },
    write<T>(mutate: (data: Dataset) => T): Promise<T> {
      // Persisting takes a turn of the event loop, as a real store's does.
      const result = queue.then(async () => {
        const value = runWrite(mutate);
        await new Promise((resolve) => setTimeout(resolve, 0));
        return value;
      });
      queue = result.catch(() => undefined);
      return result;
    },
    async close() {
      await queue;
      closed = true;
    },
  };
}
