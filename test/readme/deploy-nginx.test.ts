import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packageRoot } from '../../spec/spec-path.js';
import { freePort } from '../../scripts/postgres/throwaway-cluster.mjs';
import { login } from '../durability/api-calls.js';
import { startCliServer, type CliServer } from '../durability/cli-server.js';
import { usePostgresCluster } from '../support/postgres/postgres-cluster.js';
import { deployBlocks, placeNginxConf, sqlStatements, startNginx } from './deploy-blocks.js';

/*
 * docs/deploy.md, run: its setup SQL on a throwaway cluster, two `apikit serve` instances on
 * that database (DATABASE_URL, one APIKIT_JWT_SECRET), and its nginx configuration, exactly
 * as shown but for the ports and the log folder (deploy-blocks.ts), in front of them. Through
 * nginx both instances answer, a token from one is good on the other, an instance stopped by
 * SIGTERM is routed around, and the login limit per address answers the contract's 429.
 * Debian's nginx is installed when missing (scripts/ensure-nginx.sh). Needs `npm run build`.
 */

const doc = deployBlocks(await readFile(join(packageRoot, 'docs', 'deploy.md'), 'utf8'));
const postgres = usePostgresCluster();

const env = {
  APIKIT_JWT_SECRET: 'deploy-doc-secret-the-same-on-every-instance-0123456789',
  APIKIT_ADMIN_PASSWORD: 'deploy-admin-password',
  APIKIT_USER_PASSWORD: 'deploy-user-password',
};

let dir: string;
let nginx: ChildProcess | undefined;
const instances: CliServer[] = [];
let balancer: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'apikit-deploy-'));
  const client = new pg.Client({ connectionString: postgres.cluster.url });
  await client.connect();
  try {
    for (const statement of sqlStatements(doc.get('setup.sql') ?? ''))
      await client.query(statement);
  } finally {
    await client.end();
  }
  // The throwaway cluster trusts loopback: the password is sent, not checked.
  const databaseUrl = `postgres://apikit:change-me@127.0.0.1:${postgres.cluster.port}/apikit`;
  for (const name of ['a', 'b']) {
    instances.push(
      await startCliServer({
        dbFile: join(dir, `not-used-${name}.json`),
        env: { ...env, DATABASE_URL: databaseUrl },
        args: ['--database-pool', '4', '--data', 'empty'],
        logs: true,
      }),
    );
  }
  const listenPort = await freePort();
  const confFile = join(dir, 'apikit.conf');
  const ports = instances.map((i) => Number(new URL(i.url).port)) as [number, number];
  await writeFile(
    confFile,
    placeNginxConf(doc.get('apikit.conf') ?? '', { instancePorts: ports, listenPort, dir }),
  );
  nginx = await startNginx(dir, confFile);
  balancer = `http://127.0.0.1:${listenPort}`;
  for (let tries = 0; ; tries += 1) {
    const up = await fetch(`${balancer}/healthz`).then(
      (res) => res.status === 200,
      () => false,
    );
    if (up) break;
    if (tries > 100) throw new Error(`nginx did not answer on ${balancer}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}, 120_000);

afterAll(async () => {
  if (nginx && nginx.exitCode === null) {
    const exited = new Promise((resolve) => nginx?.once('exit', resolve));
    nginx.kill('SIGQUIT');
    const timer = setTimeout(() => nginx?.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  }
  await Promise.all(instances.map((instance) => instance.kill('SIGKILL')));
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Which instance logged the request of this id (-1: neither). */
function answeredBy(requestId: string | null): number {
  return instances.findIndex((i) => requestId !== null && i.stderr().includes(requestId));
}

describe('docs/deploy.md: nginx in front of two instances on one database', () => {
  it('has the blocks the test runs', () => {
    expect([...doc.keys()].sort()).toEqual(['apikit.conf', 'backup.sh', 'setup.sql']);
  });

  it('spreads requests over both instances, with one signing secret', async () => {
    const api = `${balancer}/api/v1`;
    const token = await login(api, 'admin@example.com', env.APIKIT_ADMIN_PASSWORD);
    const created = await fetch(`${api}/users`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Through nginx', email: 'nginx@example.com' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    const ids: (string | null)[] = [];
    for (let n = 0; n < 12; n += 1) {
      const res = await fetch(`${api}/users/${id}`, {
        headers: { Authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
      ids.push(res.headers.get('x-request-id'));
    }
    // Request lines are batched and piped: give them a moment to arrive.
    for (let wait = 0; wait < 50 && ids.some((rid) => answeredBy(rid) < 0); wait += 1)
      await new Promise((resolve) => setTimeout(resolve, 100));
    const seenBy = new Set(ids.map(answeredBy));
    expect([...seenBy].sort()).toEqual([0, 1]);
    const access = await readFile(join(dir, 'apikit.access.log'), 'utf8');
    for (const instance of instances)
      expect(access).toContain(`upstream=127.0.0.1:${new URL(instance.url).port}`);
  });

  it('answers the contract 429 for too many logins from one address', async () => {
    const answers: { status: number; type: string; retryAfter: string | null }[] = [];
    for (let n = 0; n < 9; n += 1) {
      const res = await fetch(`${balancer}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'admin@example.com', password: 'wrong-password' }),
      });
      await res.arrayBuffer();
      answers.push({
        status: res.status,
        type: res.headers.get('content-type') ?? '',
        retryAfter: res.headers.get('retry-after'),
      });
    }
    const limited = answers.filter((a) => a.status === 429);
    expect(limited.length).toBeGreaterThan(0);
    expect(limited[0]).toEqual({ status: 429, type: 'application/problem+json', retryAfter: '60' });
    expect(answers.filter((a) => a.status !== 429 && a.status !== 401)).toEqual([]);
  });

  it('routes around an instance stopped by SIGTERM', async () => {
    const api = `${balancer}/api/v1`;
    const token = await login(
      instances[1]?.api ?? '',
      'admin@example.com',
      env.APIKIT_ADMIN_PASSWORD,
    );
    await instances[0]?.kill('SIGTERM');
    expect(instances[0]?.child.exitCode).toBe(0);
    for (let n = 0; n < 8; n += 1) {
      const res = await fetch(`${api}/users/1`, { headers: { Authorization: `Bearer ${token}` } });
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
  });
});
