import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/postgres/throwaway-cluster.mjs';
import { usePostgresCluster } from '../support/postgres/postgres-cluster.js';
import { runCli } from '../run-cli.js';
import { login } from './api-calls.js';
import { startCliServer, type CliServer } from './cli-server.js';

/*
 * `apikit serve --database-url` started while PostgreSQL is not there (decision 0089): it waits
 * up to --database-wait seconds (default 30) without listening, then exits 2 naming the reason;
 * a database that comes up meanwhile is used; a refusal by the database itself (no such
 * database) is exit 2 at once. The password is never printed. Needs `npm run build`.
 */

const postgres = usePostgresCluster();

const env = {
  APIKIT_ADMIN_PASSWORD: 'wait-admin-password',
  APIKIT_USER_PASSWORD: 'wait-user-password',
  APIKIT_JWT_SECRET: 'wait-secret-wait-secret-wait-secret-0123456789abcdef',
};

let dir: string | undefined;
let server: CliServer | undefined;

afterAll(async () => {
  await server?.kill('SIGKILL');
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('apikit serve started while PostgreSQL is down', () => {
  it('waits --database-wait seconds, then exits 2 naming the reason (password not shown)', async () => {
    const port = await freePort();
    const started = Date.now();
    const result = await runCli(
      [
        'serve',
        '--port',
        '0',
        '--log-format',
        'off',
        '--database-wait',
        '2',
        '--database-url',
        `postgres://apikit:s3cret-pw@127.0.0.1:${port}/apikit`,
      ],
      { timeoutMs: 20_000 },
    );
    const took = Date.now() - started;
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).not.toContain('listening');
    expect(result.stderr).toContain(
      `apikit: waiting for PostgreSQL at postgres://apikit:***@127.0.0.1:${port}/apikit (the database is unavailable: connect ECONNREFUSED`,
    );
    expect(result.stderr).toMatch(
      /apikit: the database is unavailable: connect ECONNREFUSED \S+ after waiting 2 s \(PostgreSQL at postgres:\/\/apikit:\*\*\*@/,
    );
    expect(result.stderr).not.toContain('s3cret-pw');
    expect(took).toBeGreaterThanOrEqual(2_000);
    expect(took).toBeLessThan(15_000);
  });

  it('exits 2 at once when the database itself refuses (no such database)', async () => {
    const result = await runCli(
      [
        'serve',
        '--port',
        '0',
        '--log-format',
        'off',
        '--database-url',
        postgres.cluster.urlOf('nosuch'),
      ],
      { timeoutMs: 20_000 },
    );
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain(
      `apikit: PostgreSQL at ${postgres.cluster.urlOf('nosuch')} refused: database "nosuch" does not exist`,
    );
    expect(result.stderr).not.toContain('waiting for PostgreSQL');
  });

  it('starts serving once the database comes up within the wait', async () => {
    dir = await mkdtemp(join(tmpdir(), 'apikit-pg-wait-'));
    const databaseUrl = await postgres.freshDatabase();
    postgres.cluster.stop('fast');
    const serving = startCliServer({
      dbFile: join(dir, 'not-used.json'),
      env,
      args: ['--database-url', databaseUrl, '--database-wait', '60'],
      startTimeoutMs: 60_000,
    });
    serving.catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await postgres.cluster.start();
    server = await serving;
    expect(server.stderr()).toContain('apikit: waiting for PostgreSQL at');
    const token = await login(server.api, 'admin@example.com', env.APIKIT_ADMIN_PASSWORD);
    const res = await fetch(`${server.api}/users/1`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
  }, 90_000);
});
