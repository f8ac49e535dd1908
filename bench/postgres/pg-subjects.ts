/**
 * `apikit serve --database-url` as the PostgreSQL subject (decision 0088): instances as child
 * processes on one database, each as production runs it (auth, validation, ETags, rate limits
 * raised above the load, request logs off), sharing one signing secret so that one login's
 * token is good on every instance.
 */
import { join } from 'node:path';
import { log } from '../bench-log.js';
import { REPO_ROOT } from '../repo-root.js';
import {
  ADMIN,
  BENCH_JWT_SECRET,
  RAISED_LOGIN_RATE_LIMIT,
  RAISED_RATE_LIMIT,
} from '../subjects/reference-server-subject.js';
import { startLoggedIn, type Subject } from '../subjects/subject.js';

/** `apikit serve` on PostgreSQL at `port`. */
export function postgresServeArgs(port: number, databaseUrl: string, pool: number): string[] {
  return [
    join(REPO_ROOT, 'bin/apikit.js'),
    'serve',
    '--port',
    String(port),
    '--database-url',
    databaseUrl,
    '--database-pool',
    String(pool),
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

/**
 * Starts `count` instances on `databaseUrl` one after another (the first finds the schema and
 * the seed in place; none migrates or seeds), each logged in as the admin. Stops the ones
 * started when a later one fails.
 *
 * @example
 * const servers = await startPostgresInstances(db.url, 3, 10);
 * await Promise.all(servers.map((s) => s.stop()));
 */
export async function startPostgresInstances(
  databaseUrl: string,
  count: number,
  pool: number,
): Promise<Subject[]> {
  const started: Subject[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const subject = await startLoggedIn(
        `apikit serve (PostgreSQL) #${i + 1}`,
        (port) => postgresServeArgs(port, databaseUrl, pool),
        ADMIN,
      );
      started.push(subject);
      log(`  ${subject.name} ready in ${Math.round(subject.process.startMs)} ms`);
    }
    return started;
  } catch (error) {
    await Promise.all(started.map((s) => s.stop()));
    throw error;
  }
}
