import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type RunningServer } from '../../reference-server/create-server.js';
import { packageRoot } from '../../spec/spec-path.js';

/*
 * The long-running commands started the way a CI script or a container starts them,
 * `npx apikit ...` (npm 11: npm exec -> sh -c -> node), and stopped through that chain
 * (decision 0099). npm hands SIGTERM only to its `sh -c`, which dies without passing it on and
 * leaves node to init; apikit notices its parent gone and stops as on SIGTERM: serve drains,
 * proxy writes its report, and no Prism is left. In this repository `npx --no -- apikit` runs
 * the package itself (npm links the project). Linux only: it reads the process tree from ps
 * and a process's state from /proc (an orphan may linger as a zombie until init reaps it).
 * Needs `npm run build`.
 */

const linux = process.platform === 'linux';
const dirs: string[] = [];
const started: ChildProcess[] = [];

afterEach(async () => {
  for (const child of started.splice(0)) if (child.pid) killTree(child.pid);
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** `npx --no -- apikit ARGS` in the repository, with its output collected. */
function npx(args: string[]) {
  const child = spawn('npx', ['--no', '--', 'apikit', ...args], {
    cwd: packageRoot,
    // A process group of its own, as a terminal's job: Ctrl-C signals all of it.
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  started.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | string>((done) =>
    child.once('exit', (code, signal) => done(code ?? signal ?? 'unknown')),
  );
  return {
    child,
    exited,
    stdout: () => stdout,
    stderr: () => stderr,
    /** The URL of its `listening on` line (bounded). */
    async url(ms = 60_000): Promise<string> {
      await until(
        () => /listening on (http:\/\/\S+)/.test(stdout),
        ms,
        () => stdout + stderr,
      );
      return /listening on (http:\/\/\S+)/.exec(stdout)![1]!;
    },
  };
}

interface Proc {
  pid: number;
  ppid: number;
  args: string;
}

function processes(): Proc[] {
  const ps = spawnSync('ps', ['-A', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' });
  return ps.stdout
    .split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3]! }));
}

/** Every process below `pid`, nearest first. */
function descendants(pid: number): Proc[] {
  const all = processes();
  const found: Proc[] = [];
  for (let layer = [pid]; layer.length > 0;) {
    const next = all.filter((p) => layer.includes(p.ppid));
    found.push(...next);
    layer = next.map((p) => p.pid);
  }
  return found;
}

/** The chain npx started: its `sh -c`, the node running apikit, and Prism when there is one. */
function chainOf(npxPid: number) {
  const below = descendants(npxPid);
  const node = below.find((p) => /node\S*\s.*apikit/.test(p.args) && !/prism-cli/.test(p.args));
  const sh = below.find((p) => p.pid === node?.ppid);
  const prism = below.find((p) => /prism-cli/.test(p.args));
  if (!node) throw new Error(`no apikit process below npx ${npxPid}: ${JSON.stringify(below)}`);
  return { sh, node: node.pid, prism: prism?.pid };
}

/** Gone, or a zombie waiting for init to reap it: it runs no more. */
function gone(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8')
      .replace(/^.*\)\s+/, '')
      .startsWith('Z');
  } catch {
    return true;
  }
}

function killTree(pid: number): void {
  for (const p of [...descendants(pid)].reverse()) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

async function until(test: () => boolean, ms: number, what: () => string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!test()) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms:\n${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/**
 * A POST whose body is half sent: in flight until `finish()`. `arrived` resolves once the
 * server has the request (its `100 Continue`), so that it is in flight, not still on the way.
 */
function slowCreate(api: string, token: string) {
  const body = Buffer.from(JSON.stringify({ name: 'Drained', email: 'drained@example.com' }));
  const url = new URL(`${api}/users`);
  let finish!: () => void;
  let onArrived!: () => void;
  const arrived = new Promise<void>((resolve) => (onArrived = resolve));
  const status = new Promise<number>((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: url.pathname,
        agent: false,
        headers: {
          Authorization: `Bearer ${token}`,
          'Content-Type': 'application/json',
          'Content-Length': String(body.length),
          Expect: '100-continue',
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.on('continue', () => req.write(body.subarray(0, 10), () => onArrived()));
    req.flushHeaders();
    finish = () => req.end(body.subarray(10));
  });
  status.catch(() => {}); // a test that fails before awaiting it kills the server under it
  return { status, arrived, finish: () => finish() };
}

async function adminToken(api: string): Promise<string> {
  const res = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin@example.com', password: 'admin-demo-password' }),
  });
  return ((await res.json()) as { accessToken: string }).accessToken;
}

describe.skipIf(!linux)('npx apikit serve, stopped through the npx chain', () => {
  // SIGINT to npx or its sh alone reaches nothing: npm hands it to sh, which (as POSIX shells
  // do) waits for its child before acting on it, so apikit never learns of it; a terminal's
  // Ctrl-C signals the whole group, apikit included (decision 0099).
  it.each([
    ['SIGTERM', 'npx'],
    ['SIGTERM', 'sh'],
    ['SIGINT', 'group'],
  ] as const)(
    '%s to %s: the server drains (a request in flight gets its 201), then exits',
    async (signal, target) => {
      const serve = npx(['serve', '--memory', '--port', '0', '--log-format', 'off']);
      const url = await serve.url();
      const api = `${url}/api/v1`;
      const chain = chainOf(serve.child.pid!);
      expect(chain.sh, 'npm 11 runs apikit under sh -c').toBeDefined();
      const inFlight = slowCreate(api, await adminToken(api));
      await inFlight.arrived;
      const t0 = performance.now();
      const pid = { npx: serve.child.pid!, sh: chain.sh!.pid, group: -serve.child.pid! }[target];
      process.kill(pid, signal);
      await until(() => /draining in-flight requests/.test(serve.stderr()), 5_000, serve.stderr);
      const noticedMs = performance.now() - t0;
      inFlight.finish();
      expect(await inFlight.status).toBe(201);
      await until(() => gone(chain.node), 10_000, serve.stderr);
      const goneMs = performance.now() - t0;
      // npm does not wait for it: it went at once, with the signal's status.
      const npxExit = await serve.exited;
      expect(serve.stderr()).toMatch(
        target === 'group'
          ? /^SIGINT: draining/m // its own signal, not its parent's exit after it
          : /^SIGTERM \(parent process \d+ exited\): draining/m,
      );
      await expect(fetch(`${url}/healthz`)).rejects.toThrow();
      console.info(
        `${signal} to ${target}: npx exited ${npxExit}; apikit noticed in ${Math.round(noticedMs)} ms, drained its request and was gone ${Math.round(goneMs)} ms after the signal`,
      );
    },
    60_000,
  );
});

describe.skipIf(!linux)('npx apikit proxy and mock --engine prism, stopped through npx', () => {
  let backend: RunningServer;
  beforeAll(async () => {
    backend = await createServer({ port: 0, memory: true, rateLimit: 0, loginRateLimit: 0 });
  });
  afterAll(() => backend?.close());

  it('proxy: SIGTERM to npx writes the report, and no Prism is left', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'apikit-npx-proxy-'));
    dirs.push(dir);
    const report = join(dir, 'proxy.json');
    const proxy = npx(['proxy', backend.url, '--port', '0', '-o', report]);
    const url = await proxy.url(90_000);
    expect((await fetch(`${url}/api/v1/users`)).status).toBe(401);
    const chain = chainOf(proxy.child.pid!);
    expect(chain.prism, 'Prism runs below apikit').toBeDefined();
    const t0 = performance.now();
    proxy.child.kill('SIGTERM');
    await until(() => gone(chain.node) && gone(chain.prism!), 20_000, proxy.stderr);
    const goneMs = performance.now() - t0;
    expect(existsSync(report), proxy.stderr()).toBe(true);
    const written = JSON.parse(readFileSync(report, 'utf8')) as {
      summary: { stoppedBy: string; validated: number; rejected: number; notes: string[] };
    };
    expect(written.summary.stoppedBy).toMatch(/^SIGTERM \(parent process \d+ exited\)$/);
    expect(written.summary).toMatchObject({ validated: 1, rejected: 1 });
    expect(written.summary.notes).toEqual([
      'nothing was validated: the only answer was 401 (no 2xx or 3xx: did a login fail?)',
    ]);
    console.info(
      `proxy: npx exited ${await proxy.exited}; report written, apikit and Prism gone ${Math.round(goneMs)} ms after the signal`,
    );
  }, 120_000);

  it('mock --engine prism: SIGTERM to npx stops the mock and its Prism', async () => {
    const mock = npx(['mock', '--engine', 'prism', '--port', '0']);
    await mock.url(90_000);
    const chain = chainOf(mock.child.pid!);
    expect(chain.prism).toBeDefined();
    mock.child.kill('SIGTERM');
    await until(() => gone(chain.node) && gone(chain.prism!), 20_000, mock.stderr);
    expect(mock.stderr()).toMatch(/SIGTERM \(parent process \d+ exited\): stopping the mock/);
  }, 120_000);

  it('no Prism outlives apikit, not even one killed with SIGKILL', async () => {
    const mock = npx(['mock', '--engine', 'prism', '--port', '0']);
    await mock.url(90_000);
    const chain = chainOf(mock.child.pid!);
    const t0 = performance.now();
    process.kill(chain.node, 'SIGKILL');
    await until(
      () => gone(chain.prism!),
      5_000,
      () => JSON.stringify(processes()),
    );
    console.info(`Prism left ${Math.round(performance.now() - t0)} ms after apikit was killed`);
  }, 120_000);

  it('conform: SIGTERM to npx still writes the (partial) report', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'apikit-npx-conform-'));
    dirs.push(dir);
    const report = join(dir, 'conform.json');
    const conform = npx([
      'conform',
      `${backend.url}/api/v1`,
      '--username',
      'user@example.com',
      '--password',
      'user-demo-password',
      '--admin-username',
      'admin@example.com',
      '--admin-password',
      'admin-demo-password',
      '--reporter',
      'json',
      '--output',
      report,
    ]);
    await until(() => /conform: \d+\/\d+ /.test(conform.stderr()), 60_000, conform.stderr);
    const { node } = chainOf(conform.child.pid!);
    conform.child.kill('SIGTERM');
    await until(() => gone(node), 30_000, conform.stderr);
    expect(conform.stderr()).toMatch(/conform: SIGTERM \(parent process \d+ exited\): stopping/);
    const written = JSON.parse(readFileSync(report, 'utf8')) as {
      summary: { incomplete?: string };
    };
    expect(written.summary.incomplete).toBeTruthy();
  }, 120_000);
});
