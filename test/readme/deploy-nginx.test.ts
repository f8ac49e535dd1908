import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DRAIN_DELAY_SECONDS } from '../../node-runtime/drain-server.js';
import { loadBundledSpec } from '../../spec/bundled-spec.js';
import type { Schema } from '../../spec/schema/effective-schema.js';
import { createSchemaValidator } from '../../spec/schema/schema-validator.js';
import { packageRoot } from '../../spec/spec-path.js';
import { freePort } from '../../scripts/postgres/throwaway-cluster.mjs';
import { login } from '../durability/api-calls.js';
import { startCliServer, type CliServer } from '../durability/cli-server.js';
import { usePostgresCluster } from '../support/postgres/postgres-cluster.js';
import { deployBlocks, placeNginxConf, sqlStatements, startNginx } from './deploy-blocks.js';

/*
 * docs/deploy.md, run: its setup SQL on a throwaway cluster, three `apikit serve` instances on
 * that database (DATABASE_URL, one APIKIT_JWT_SECRET), and its nginx configuration, exactly
 * as shown but for the ports and the log folder (deploy-blocks.ts), in front of them. Through
 * nginx every instance answers, a token from one is good on the others, a rolling restart at
 * the guide's pace under load gives clients nothing but 2xx (decision 0111), an instance
 * stopped by SIGTERM is routed around, and nginx's own 429 and 502 are the contract's
 * problems. Debian's nginx is installed when missing (scripts/ensure-nginx.sh). Needs
 * `npm run build`.
 */

const guide = await readFile(join(packageRoot, 'docs', 'deploy.md'), 'utf8');
const doc = deployBlocks(guide);
const problemSchema = (await loadBundledSpec()).spec.components?.schemas?.Problem as Schema;
const validator = createSchemaValidator('response');
/** The guide's `fail_timeout`, in ms: the pause after a restarted instance is ready. */
const failTimeoutMs = Number(/fail_timeout=(\d+)s/.exec(doc.get('apikit.conf') ?? '')?.[1]) * 1000;
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
let databaseUrl: string;
let ports: [number, number, number];

/** Starts (or starts again) the instance on ports[n], as the guide runs it, with its drain delay. */
async function startInstance(n: number): Promise<CliServer> {
  return startCliServer({
    dbFile: join(dir, `not-used-${n}.json`),
    port: ports[n],
    env: { ...env, DATABASE_URL: databaseUrl },
    args: [
      '--database-pool',
      '4',
      '--data',
      'empty',
      '--drain-delay',
      `${DEFAULT_DRAIN_DELAY_SECONDS}`,
    ],
    logs: true,
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `url` until it answers `status` (within `ms`). */
async function until(url: string, status: number, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  for (;;) {
    const seen = await fetch(url).then(
      async (res) => (await res.arrayBuffer(), res.status),
      () => 0,
    );
    if (seen === status) return;
    if (Date.now() > deadline) throw new Error(`${url} still answers ${seen}, not ${status}`);
    await sleep(50);
  }
}

/** The body, after checking it is the contract's problem+json with the request's id. */
async function problemOf(res: Response): Promise<Record<string, unknown>> {
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  const body = (await res.json()) as Record<string, unknown>;
  expect(validator.errors(problemSchema, body)).toEqual([]);
  expect(body.status).toBe(res.status);
  expect(body.requestId).toBe(res.headers.get('x-request-id'));
  return body;
}

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
  databaseUrl = `postgres://apikit:change-me@127.0.0.1:${postgres.cluster.port}/apikit`;
  ports = [await freePort(), await freePort(), await freePort()];
  for (const n of [0, 1, 2]) instances.push(await startInstance(n));
  const listenPort = await freePort();
  const confFile = join(dir, 'apikit.conf');
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

describe('docs/deploy.md: nginx in front of three instances on one database', () => {
  it('has the blocks the test runs', () => {
    expect([...doc.keys()].sort()).toEqual(
      ['Dockerfile', 'apikit.conf', 'apikit@.service', 'backup.sh', 'setup.sql'].sort(),
    );
  });

  it('spreads requests over the instances, with one signing secret', async () => {
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
    for (let n = 0; n < 18; n += 1) {
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
    expect([...seenBy].sort()).toEqual([0, 1, 2]);
    const access = await readFile(join(dir, 'apikit.access.log'), 'utf8');
    for (const instance of instances)
      expect(access).toContain(`upstream=127.0.0.1:${new URL(instance.url).port}`);
  });

  it("restarts every instance in turn under load, at the guide's pace, with no client error", async () => {
    expect(guide).toContain(`default ${DEFAULT_DRAIN_DELAY_SECONDS} s`);
    expect(failTimeoutMs).toBeGreaterThan(0);
    const api = `${balancer}/api/v1`;
    const token = await login(
      instances[0]?.api ?? '',
      'admin@example.com',
      env.APIKIT_ADMIN_PASSWORD,
    );
    const auth = { Authorization: `Bearer ${token}` };
    const failures: string[] = [];
    let requests = 0;
    let clientRetries = 0;
    let stop = false;
    // Reads (nginx retries them) and keyed creates (the client retries them on 502, 503, 504
    // and 409 idempotency-key-in-use, as the guide says), from 4 clients, ~25 a second each.
    const worker = async (w: number) => {
      for (let n = 0; !stop; n += 1) {
        requests += 1;
        if (n % 2 === 0) {
          const res = await fetch(`${api}/users/1`, { headers: auth }).catch(() => undefined);
          await res?.arrayBuffer();
          if (res?.status !== 200) failures.push(`GET ${res?.status ?? 'network error'}`);
        } else {
          const key = `rolling-${w}-${n}`;
          for (let attempt = 0; ; attempt += 1) {
            const res = await fetch(`${api}/users`, {
              method: 'POST',
              headers: { ...auth, 'Content-Type': 'application/json', 'Idempotency-Key': key },
              body: JSON.stringify({ name: `Rolling ${w} ${n}`, email: `${key}@example.com` }),
            }).catch(() => undefined);
            const text = (await res?.text()) ?? '';
            const retry =
              res === undefined ||
              [502, 503, 504].includes(res.status) ||
              (res.status === 409 && text.includes('idempotency-key-in-use'));
            if (res?.status === 201) break;
            if (!retry || attempt >= 20) {
              failures.push(`POST ${res?.status ?? 'network error'} ${text.slice(0, 200)}`);
              break;
            }
            clientRetries += 1;
            await sleep(250);
          }
        }
        await sleep(40);
      }
    };
    const load = [0, 1, 2, 3].map(worker);
    const started = Date.now();
    try {
      await sleep(500);
      for (const n of [0, 1, 2]) {
        const old = instances[n];
        if (!old) throw new Error(`no instance ${n}`);
        // 1. SIGTERM: /readyz says 503 at once while the API still answers (the drain delay).
        old.child.kill('SIGTERM');
        await until(`${old.url}/readyz`, 503, 2_000);
        const during = await fetch(`${old.api}/users/1`, { headers: auth });
        expect(during.status).toBe(200);
        expect(during.headers.get('connection')).toBe('close');
        await during.arrayBuffer();
        await old.exited;
        expect(old.child.exitCode).toBe(0);
        // 2. The new one on the same address; 3. ready, then fail_timeout; 4. the next.
        instances[n] = await startInstance(n);
        await until(`${instances[n]?.url}/readyz`, 200);
        await sleep(failTimeoutMs);
      }
    } finally {
      stop = true;
      await Promise.all(load);
    }
    console.info(
      `rolling restart: ${requests} requests in ${Date.now() - started} ms, ${failures.length} not 2xx, ${clientRetries} keyed POSTs retried by the client`,
    );
    expect(failures).toEqual([]);
    expect(requests).toBeGreaterThan(200);
  }, 120_000);

  it('answers the contract 429 for too many logins from one address', async () => {
    const answers: { status: number; type: string; retryAfter: string | null }[] = [];
    let problem: Record<string, unknown> | undefined;
    for (let n = 0; n < 9; n += 1) {
      const res = await fetch(`${balancer}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ username: 'admin@example.com', password: 'wrong-password' }),
      });
      if (res.status === 429) problem ??= await problemOf(res);
      else await res.arrayBuffer();
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
    expect(problem).toMatchObject({
      type: 'urn:apikit:problem:rate-limited',
      status: 429,
      instance: '/api/v1/auth/login',
    });
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

  it("answers nginx's own 502 as the contract's problem when no instance is there", async () => {
    await Promise.all(instances.map((instance) => instance.kill('SIGTERM')));
    const res = await fetch(`${balancer}/api/v1/users/7?fields=id`, {
      headers: { 'X-Request-Id': 'deploy-502-check' },
    });
    expect(res.status).toBe(502);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await problemOf(res)).toMatchObject({
      type: 'urn:apikit:problem:service-unavailable',
      status: 502,
      instance: '/api/v1/users/7',
      requestId: 'deploy-502-check',
    });
    // Briefly: one instance back, and nginx answers through it again after fail_timeout.
    instances[0] = await startInstance(0);
    await sleep(failTimeoutMs);
    await until(`${balancer}/readyz`, 200, 10_000);
  });
});
