import type { Adapter } from 'lowdb';
import type { Dataset } from '../../core/domain/dataset.js';
import type { Store } from '../../core/domain/store.js';
import { DurableJsonFile } from './durable-json-file.js';
import { createDurableStore } from '../../core/store/durable-store.js';
import { MemoryAdapter } from '../../core/store/memory-adapter.js';

/** Options of {@link createStore}. */
export interface CreateStoreOptions {
  /** The JSON file to keep the data set in (callers resolve the default path). */
  file?: string;
  /** Keep the data set in memory only; wins over `file`, so `--memory` overrides a default path. */
  memory?: boolean;
  /** The data set of a first start (or of every start, in memory). */
  seed: () => Dataset | Promise<Dataset>;
  /** What a 503 tells clients to wait (seconds, default 1). */
  retryAfterSeconds?: number;
}

/**
 * Opens the reference server's store: a durable JSON file, or memory. Node only (it brings the
 * file adapter); a browser uses `createDurableStore` with a `MemoryAdapter` directly.
 *
 * @example
 * const store = await createStore({ file: 'data/db.json', seed: demoDataset });
 * const test = await createStore({ memory: true, seed: demoDataset });
 */
export function createStore(options: CreateStoreOptions): Promise<Store> {
  const { file, memory = false, seed, retryAfterSeconds } = options;
  let adapter: Adapter<Dataset>;
  if (memory) adapter = new MemoryAdapter<Dataset>();
  else if (file !== undefined) adapter = new DurableJsonFile(file);
  else return Promise.reject(new TypeError('createStore: give a file, or memory: true'));
  return createDurableStore({ adapter, seed, retryAfterSeconds });
}
