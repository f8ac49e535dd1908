import type { Adapter } from 'lowdb';

/** The part of the Web Storage API the adapter needs (localStorage, sessionStorage, a fake). */
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem'>;

/**
 * A lowdb adapter over Web Storage, so that the mocks' data survives a page reload. (lowdb's
 * own browser adapters are synchronous and bound to the global; the durable store takes the
 * async interface and tests pass a fake storage.) Writes snapshot the data at the call.
 *
 * @example
 * createMockApi({ persist: { storage: localStorage, key: 'apikit-mock' } });
 */
export class WebStorageAdapter<T> implements Adapter<T> {
  constructor(
    private readonly storage: KeyValueStorage,
    private readonly key: string,
  ) {}

  async read(): Promise<T | null> {
    const text = this.storage.getItem(this.key);
    return text === null ? null : (JSON.parse(text) as T);
  }

  async write(data: T): Promise<void> {
    this.storage.setItem(this.key, JSON.stringify(data));
  }
}
