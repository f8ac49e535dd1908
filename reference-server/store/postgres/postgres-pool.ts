import pg from 'pg';

/** How an instance connects to its database. */
export interface PostgresPoolOptions {
  /** postgres://user:password@host:port/database (libpq's URL; `?sslmode=` and friends work). */
  connectionString: string;
  /** Connections this instance keeps at most (default 10). Sum over instances < max_connections. */
  poolSize?: number;
  /** How long a request waits for a free connection before the answer is 503 (default 5 s). */
  connectionTimeoutMillis?: number;
  /** An idle connection is closed after this long (default 30 s). */
  idleTimeoutMillis?: number;
  /** Shown in pg_stat_activity (default "apikit"). */
  applicationName?: string;
  /** Called for errors of idle connections (the database restarted); by default ignored. */
  onIdleError?: (error: Error) => void;
}

/** What an instance's pool does unless told otherwise (docs/deploy.md quotes them). */
export const POOL_DEFAULTS = {
  size: 10,
  connectionTimeoutMillis: 5_000,
  idleTimeoutMillis: 30_000,
};

const INT8 = 20;
const NUMERIC = 1700;

/**
 * Ids are bigint in the schema, at most 2^53 - 1 by the contract: read them as numbers (the
 * driver's default is a string). Per pool, not global: another pg user in the process keeps
 * its own parsers.
 */
const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  },
};

/**
 * The pool of one instance. An idle connection that the database drops (a restart, an admin
 * shutdown) is removed from the pool and the error reported to `onIdleError` rather than
 * crashing the process: the next request opens a fresh one.
 *
 * @example
 * const pool = createPostgresPool({ connectionString: process.env.DATABASE_URL! });
 */
export function createPostgresPool(options: PostgresPoolOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.poolSize ?? POOL_DEFAULTS.size,
    connectionTimeoutMillis:
      options.connectionTimeoutMillis ?? POOL_DEFAULTS.connectionTimeoutMillis,
    idleTimeoutMillis: options.idleTimeoutMillis ?? POOL_DEFAULTS.idleTimeoutMillis,
    application_name: options.applicationName ?? 'apikit',
    // JIT compiles a query whose estimated cost is high, and `enable_seqscan = off` (see
    // postgres-repository.ts) prices every sequence read at 10^10: each create then spent
    // 12-104 ms compiling a one-row query under the id lock (decision 0088). Our queries are
    // short; JIT never pays for itself here.
    options: '-c jit=off',
    keepAlive: true,
    types,
  });
  pool.on('error', (error) => options.onIdleError?.(error));
  return pool;
}
