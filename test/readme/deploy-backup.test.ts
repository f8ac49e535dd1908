import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../spec/spec-path.js';
import { postgresBinDir } from '../../scripts/postgres/throwaway-cluster.mjs';
import { authJson, login } from '../durability/api-calls.js';
import { startCliServer, type CliServer } from '../durability/cli-server.js';
import { usePostgresCluster } from '../support/postgres/postgres-cluster.js';
import { deployBlocks, sqlStatements } from './deploy-blocks.js';

/*
 * docs/deploy.md's logical backup, run as shown (PGHOST, PGPORT and PGUSER point the client
 * tools at a throwaway cluster): a database an instance wrote is dumped while it runs,
 * restored into a new database, and an instance started on the copy, with another `--data`,
 * serves what was written, seeds nothing and hands out no id twice. Needs `npm run build`.
 */

const doc = deployBlocks(await readFile(join(packageRoot, 'docs', 'deploy.md'), 'utf8'));
const postgres = usePostgresCluster();

const env = {
  APIKIT_JWT_SECRET: 'deploy-backup-secret-the-same-on-every-instance-0123',
  APIKIT_ADMIN_PASSWORD: 'backup-admin-password',
  APIKIT_USER_PASSWORD: 'backup-user-password',
};

let dir: string | undefined;
const servers: CliServer[] = [];

afterAll(async () => {
  await Promise.all(servers.map((server) => server.kill('SIGKILL')));
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function serveOn(database: string, data: string): Promise<CliServer> {
  const url = `postgres://apikit:change-me@127.0.0.1:${postgres.cluster.port}/${database}`;
  const server = await startCliServer({
    dbFile: join(dir ?? '', 'not-used.json'),
    env: { ...env, DATABASE_URL: url },
    args: ['--database-pool', '2', '--data', data],
  });
  servers.push(server);
  return server;
}

async function usersTotal(api: string, token: string): Promise<number> {
  const res = await fetch(`${api}/users?size=1`, { headers: authJson(token) });
  return ((await res.json()) as { totalElements: number }).totalElements;
}

describe('docs/deploy.md: a logical backup and its restore', () => {
  it('restores what was written; the copy is neither seeded again nor reuses an id', async () => {
    dir = await mkdtemp(join(tmpdir(), 'apikit-backup-'));
    const admin = new pg.Client({ connectionString: postgres.cluster.url });
    await admin.connect();
    try {
      for (const statement of sqlStatements(doc.get('setup.sql') ?? ''))
        await admin.query(statement);
    } finally {
      await admin.end();
    }
    const original = await serveOn('apikit', 'empty');
    const token = await login(original.api, 'admin@example.com', env.APIKIT_ADMIN_PASSWORD);
    const created = await fetch(`${original.api}/users`, {
      method: 'POST',
      headers: authJson(token),
      body: JSON.stringify({ name: 'Backed Up', email: 'backed-up@example.com' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const total = await usersTotal(original.api, token);

    const script = doc.get('backup.sh') ?? '';
    expect(script).toContain('pg_dump');
    const run = spawnSync('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: dir,
      encoding: 'utf8',
      env: {
        ...process.env,
        PATH: `${postgresBinDir()}:${process.env.PATH ?? ''}`,
        PGHOST: '127.0.0.1',
        PGPORT: String(postgres.cluster.port),
        PGUSER: 'postgres',
      },
    });
    expect(run.status, run.stderr).toBe(0);
    await original.kill('SIGTERM');

    // `--data demo` would load 24 users into a new database: the copy is not new.
    const restored = await serveOn('apikit_restored', 'demo');
    const again = await login(restored.api, 'admin@example.com', env.APIKIT_ADMIN_PASSWORD);
    const read = await fetch(`${restored.api}/users/${id}`, { headers: authJson(again) });
    expect(read.status).toBe(200);
    expect(((await read.json()) as { email: string }).email).toBe('backed-up@example.com');
    expect(await usersTotal(restored.api, again)).toBe(total);
    const next = await fetch(`${restored.api}/users`, {
      method: 'POST',
      headers: authJson(again),
      body: JSON.stringify({ name: 'After Restore', email: 'after-restore@example.com' }),
    });
    expect(next.status).toBe(201);
    expect(((await next.json()) as { id: number }).id).toBeGreaterThan(id);
  }, 90_000);
});
