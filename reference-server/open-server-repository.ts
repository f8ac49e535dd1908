import type { Adapter } from 'lowdb';
import type { Dataset } from '../core/domain/dataset.js';
import type { Store } from '../core/domain/store.js';
import { createDatasetRepository } from '../core/repository/dataset-repository.js';
import type { Repository } from '../core/repository/repository.js';
import { createDurableStore } from '../core/store/durable-store.js';
import type { ServerConfig } from '../node-runtime/server-config.js';
import { createStore } from './store/create-store.js';
import type { WindowCounter } from './http/window-counter.js';

/** The server's store of record: a repository, and the data set store under it if any. */
export interface ServerRepository {
  repository: Repository;
  /** The JSON file or memory store; undefined on PostgreSQL. */
  store: Store | undefined;
  /** Rate-limit counters shared by every instance (PostgreSQL); undefined: in memory. */
  windowCounters?: (policy: string, windowMs: number) => WindowCounter;
  /** The PostgreSQL migrations this start applied (`0001 initial-schema`); empty otherwise. */
  migrated: string[];
  /** Resolves when the store answers (PostgreSQL); undefined: a local store, always there. */
  ping?: () => Promise<void>;
}

/**
 * Opens what the configuration asks for: PostgreSQL (`databaseUrl`), an injected lowdb
 * adapter (fault tests), the JSON file, or memory. `pg` is loaded only for PostgreSQL, so
 * the file store's start stays as quick as it was.
 *
 * @example
 * const { repository } = await openServerRepository(config, seed);
 */
export async function openServerRepository(
  config: Pick<ServerConfig, 'dbFile' | 'databaseUrl' | 'databasePoolSize'>,
  seed: () => Promise<Dataset>,
  adapter?: Adapter<Dataset>,
): Promise<ServerRepository> {
  if (config.databaseUrl !== undefined && adapter === undefined) {
    const [{ openPostgresRepository }, { migrations }] = await Promise.all([
      import('./store/postgres/open-postgres-repository.js'),
      import('./store/postgres/migrate.js'),
    ]);
    const { repository, windowCounter, migrated, ping } = await openPostgresRepository({
      connectionString: config.databaseUrl,
      poolSize: config.databasePoolSize,
      seed,
    });
    const named = migrated.map((version) => {
      const name = migrations.find((m) => m.version === version)?.name;
      return `${String(version).padStart(4, '0')} ${name ?? ''}`.trim();
    });
    return { repository, store: undefined, windowCounters: windowCounter, migrated: named, ping };
  }
  const store = adapter
    ? await createDurableStore({ adapter, seed })
    : await createStore({ ...(config.dbFile ? { file: config.dbFile } : { memory: true }), seed });
  return { repository: createDatasetRepository(store), store, migrated: [] };
}
