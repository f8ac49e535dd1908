import { join } from 'node:path';
import { DEMO_ADMIN_PASSWORD, DEMO_USER_PASSWORD } from '../../node-runtime/server-config.js';
import { REPO_ROOT } from '../repo-root.js';
import { startLoggedIn, type Subject } from './subject.js';

/** A fixed signing secret (>= 32 bytes): no "random secret" warning, tokens valid across runs. */
export const BENCH_JWT_SECRET = 'apikit-bench-signing-secret-0123456789abcdef';
export const ADMIN = { username: 'admin@example.com', password: DEMO_ADMIN_PASSWORD };
export const USER = { username: 'user@example.com', password: DEMO_USER_PASSWORD };
/** Far above any load a 2-core machine can make, so that limiting runs but never answers 429. */
export const RAISED_RATE_LIMIT = 100_000_000;
export const RAISED_LOGIN_RATE_LIMIT = 100_000;

/**
 * `apikit serve` as production runs it, every behaviour on: the durable JSON store, auth,
 * request validation, ETags, rate limits (raised above the load). Request logs are off.
 */
export function serveArgs(port: number, dbFile: string): string[] {
  return [
    join(REPO_ROOT, 'bin/apikit.js'),
    'serve',
    '--port',
    String(port),
    '--db',
    dbFile,
    '--jwt-secret',
    BENCH_JWT_SECRET,
    '--rate-limit',
    String(RAISED_RATE_LIMIT),
    '--login-rate-limit',
    String(RAISED_LOGIN_RATE_LIMIT),
    '--log-format',
    'off',
  ];
}

/** Options of {@link startReferenceServer}. */
export interface ReferenceServerOptions {
  dbFile: string;
  /** Write a V8 CPU profile (node --cpu-prof) into this folder when the server exits. */
  cpuProfileDir?: string;
}

/**
 * Starts `apikit serve` on `dbFile` and logs in as the admin.
 *
 * @example
 * const server = await startReferenceServer({ dbFile: '/tmp/bench/db.json' });
 */
export function startReferenceServer(options: ReferenceServerOptions): Promise<Subject> {
  return startLoggedIn(
    'apikit serve',
    (port) => serveArgs(port, options.dbFile),
    ADMIN,
    options.cpuProfileDir ? { dir: options.cpuProfileDir, name: 'serve' } : undefined,
  );
}
