import { fork, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

/*
 * Sustained load (a benchmark, not a test): `apikit serve` on a JSON file, a separate process
 * running autocannon with 100 connections of mixed traffic (reads, writes, logins) for 60 s.
 * Records p99 latency and the server's RSS in the first and last 10 s, answers by status per
 * kind of request, and checks that every acknowledged create is in the file. Exits 1 when a
 * rule below is broken. `npm run bench:sustained -- --duration 60`.
 */

type Kind = keyof typeof EXPECTED;

/** Rules: only these statuses (401 is the wrong-password login, meant to fail). */
const EXPECTED = {
  getUser: [200],
  listUsers: [200],
  createUser: [201],
  patchUser: [200],
  login: [200],
  badLogin: [401],
} satisfies Record<string, number[]>;
/**
 * RSS may grow with the data (the live data set in memory is about twice its JSON, and a flush
 * holds one more JSON string of it), plus this much: anything beyond is a leak.
 */
const rssBound = (start: number, dataGrowth: number) => start * 1.5 + 50 * MiB + 4 * dataGrowth;
/** p99 of the last 10 s against the first: generous, a shared 2-core machine is noisy. */
const p99Bound = (start: number) => Math.round(start * 3 + 50);
const MiB = 1024 * 1024;
/** One connection's cycle (40 requests): mostly reads, some writes, 5% logins (scrypt). */
const MIX: [keyof typeof EXPECTED, number][] = [
  ['getUser', 20],
  ['listUsers', 8],
  ['createUser', 5],
  ['patchUser', 5],
  ['login', 1],
  ['badLogin', 1],
];
const PASSWORDS = { admin: 'sustained-admin-password', user: 'sustained-user-password' };
const SECRET = 'sustained-load-secret-sustained-load-secret-0123456789';
const PATCH_POOL = 100;

interface GeneratorConfig {
  url: string;
  token: string;
  connections: number;
  durationS: number;
  readIds: number[];
  patchIds: number[];
}

interface GeneratorResult {
  /** Latencies (ms) of the answers in each second of the run. */
  perSecond: number[][];
  statuses: Record<string, Record<string, number>>;
  /** Emails of the users whose creation was answered 201: each must be in the file. */
  created: string[];
  errors: Record<string, number>;
  timeouts: number;
}

const repoRoot = findRepoRoot(dirname(fileURLToPath(import.meta.url)));

if (process.argv.includes('--generator')) {
  process.once('message', (config: GeneratorConfig) => {
    generate(config).then(
      (result) => process.send?.(result, () => process.exit(0)),
      (error) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
} else {
  main().then(
    (ok) => process.exit(ok ? 0 : 1),
    (error) => {
      console.error(error);
      process.exit(2);
    },
  );
}

async function main(): Promise<boolean> {
  const { values } = parseArgs({
    options: {
      duration: { type: 'string', default: '60' },
      connections: { type: 'string', default: '100' },
      out: { type: 'string', default: join(repoRoot, 'bench', 'sustained-load.json') },
    },
  });
  const durationS = Number(values.duration);
  const connections = Number(values.connections);
  if (!(durationS >= 4) || !(connections >= 1))
    throw new Error('--duration >= 4, --connections >= 1');
  const window = Math.min(10, Math.floor(durationS / 2));
  const dir = await mkdtemp(join(tmpdir(), 'apikit-sustained-'));
  const dbFile = join(dir, 'db.json');
  const server = await startServer(dbFile);
  try {
    const api = `${server.url}/api/v1`;
    const token = await loginToken(api);
    const patchIds = [];
    for (let i = 0; i < PATCH_POOL; i += 1) {
      patchIds.push(await createUser(api, token, `pool-${i}@load.example.com`));
    }
    const userIds = Object.keys(readDataset(dbFile).users).map(Number);
    const usersAtStart = userIds.length;
    const fileAtStart = readFileSync(dbFile).length;
    const rss: { t: number; bytes: number }[] = [{ t: 0, bytes: rssOf(server.child) }];
    const loadStart = loadavg()[0] as number;
    const started = Date.now();
    const sampler = setInterval(
      () => rss.push({ t: (Date.now() - started) / 1000, bytes: rssOf(server.child) }),
      1000,
    );
    const result = await runGenerator({
      url: server.url,
      token,
      connections,
      durationS,
      readIds: userIds,
      patchIds,
    });
    clearInterval(sampler);
    const loadEnd = loadavg()[0] as number;

    server.child.kill('SIGTERM');
    const exitCode = await new Promise<number | null>((resolve) =>
      server.child.once('exit', resolve),
    );
    const data = readDataset(dbFile);
    const created = result.created.length;
    const grown = Object.keys(data.users).length - usersAtStart;
    const inFile = new Set(Object.values(data.users).map((user) => user.email));
    const lost = result.created.filter((email) => !inFile.has(email));
    const fileAtEnd = readFileSync(dbFile).length;

    const first = latency(result.perSecond.slice(0, window).flat());
    const last = latency(result.perSecond.slice(-window).flat());
    const rssMax = (from: number, to: number) =>
      Math.max(...rss.filter((s) => s.t >= from && s.t <= to).map((s) => s.bytes));
    const rssStart = rssMax(0.5, window);
    const rssEnd = rssMax(durationS - window, durationS + 1);
    const total = result.perSecond.reduce((n, second) => n + second.length, 0);
    const unexpected = Object.entries(result.statuses).flatMap(([kind, byStatus]) =>
      Object.entries(byStatus)
        .filter(
          ([status]) =>
            !((EXPECTED as Record<string, number[]>)[kind] ?? []).includes(Number(status)),
        )
        .map(([status, count]) => `${kind} ${status} x${count}`),
    );
    const failures = [
      ...unexpected.map((u) => `unexpected answer: ${u}`),
      ...Object.entries(result.errors).map(([e, n]) => `connection error x${n}: ${e}`),
      ...(result.timeouts > 0 ? [`${result.timeouts} timeouts`] : []),
      ...(lost.length > 0 ? [`${lost.length} acknowledged creates missing from the file`] : []),
      // Creates still in flight when the load stopped may be in the file, unanswered.
      ...(grown < created || grown > created + connections
        ? [`${created} creates acknowledged, but the file grew by ${grown} users`]
        : []),
      ...(exitCode !== 0 ? [`the server exited ${exitCode} on SIGTERM`] : []),
      ...(rssEnd > rssBound(rssStart, fileAtEnd - fileAtStart)
        ? ['RSS grew beyond its bound']
        : []),
      ...(last.p99 > p99Bound(first.p99) ? ['p99 grew beyond its bound'] : []),
    ];
    const report = {
      date: new Date().toISOString(),
      node: process.version,
      durationS,
      connections,
      mix: Object.fromEntries(MIX),
      machineLoad1m: { start: loadStart, end: loadEnd },
      requests: { total, perSecond: Math.round(total / durationS) },
      latencyMs: {
        [`first${window}s`]: first,
        [`last${window}s`]: last,
        overall: latency(result.perSecond.flat()),
      },
      rssMiB: {
        idle: mib(rss[0]?.bytes ?? 0),
        [`first${window}s`]: mib(rssStart),
        [`last${window}s`]: mib(rssEnd),
        peak: mib(Math.max(...rss.map((s) => s.bytes))),
        /** [second, MiB] every 5 s: whether it levels off or keeps climbing. */
        timeline: rss.filter((_, i) => i % 5 === 0).map((s) => [Math.round(s.t), mib(s.bytes)]),
      },
      data: {
        fileBytes: { start: fileAtStart, end: fileAtEnd },
        usersCreated: created,
        fileUsersGrowth: grown,
        acknowledgedMissing: lost.length,
      },
      statuses: result.statuses,
      errors: result.errors,
      timeouts: result.timeouts,
      bounds: {
        rssEndMiB: `<= 1.5 x start + 50 MiB + 4 x file growth = ${mib(rssBound(rssStart, fileAtEnd - fileAtStart))}`,
        p99EndMs: `<= 3 x start + 50 ms = ${p99Bound(first.p99)}`,
        statuses: EXPECTED,
      },
      verdict: failures.length === 0 ? 'pass' : 'fail',
      failures,
    };
    await writeFile(values.out, await formatJson(values.out, report));
    console.log(
      [
        `sustained load: ${durationS} s, ${connections} connections, ${total} requests (${report.requests.perSecond}/s), load ${loadStart.toFixed(1)} -> ${loadEnd.toFixed(1)}`,
        `  p99 first ${window} s ${first.p99} ms, last ${window} s ${last.p99} ms (bound ${p99Bound(first.p99)} ms)`,
        `  RSS idle ${report.rssMiB.idle} MiB, first ${window} s ${mib(rssStart)} MiB, last ${window} s ${mib(rssEnd)} MiB (bound ${mib(rssBound(rssStart, fileAtEnd - fileAtStart))} MiB)`,
        `  statuses ${JSON.stringify(result.statuses)}`,
        `  ${created} creates acknowledged (${lost.length} missing from the file), file grew by ${grown} users; written to ${values.out}`,
        failures.length === 0 ? '  PASS' : `  FAIL:\n    ${failures.join('\n    ')}`,
      ].join('\n'),
    );
    return failures.length === 0;
  } finally {
    server.child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  }
}

/** The load generator's side (its own process): autocannon with the mix, tallied per second. */
async function generate(config: GeneratorConfig): Promise<GeneratorResult> {
  const autocannon = createRequire(import.meta.url)('autocannon') as (
    options: object,
  ) => NodeJS.EventEmitter & PromiseLike<unknown>;
  const perSecond: number[][] = Array.from({ length: config.durationS + 1 }, () => []);
  const statuses: GeneratorResult['statuses'] = {};
  const errors: Record<string, number> = {};
  let timeouts = 0;
  const created: string[] = [];
  let sequence = 0;
  const pick = <T>(items: T[]) => items[Math.floor(Math.random() * items.length)] as T;
  const auth = { Authorization: `Bearer ${config.token}`, 'Content-Type': 'application/json' };
  const login = (password: string): Built => ({
    method: 'POST',
    path: '/api/v1/auth/login',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'user@example.com', password }),
  });
  // A fresh headers object per request: autocannon writes Content-Length into the one it gets.
  type Built = { method: string; path: string; headers: Record<string, string>; body?: string };
  const build: Record<Kind, () => Built> = {
    getUser: () => ({
      method: 'GET',
      path: `/api/v1/users/${pick(config.readIds)}`,
      headers: { ...auth },
    }),
    listUsers: () => ({
      method: 'GET',
      path: '/api/v1/users?page=0&size=20',
      headers: { ...auth },
    }),
    createUser: () => ({
      method: 'POST',
      path: '/api/v1/users',
      headers: { ...auth },
      body: JSON.stringify({
        name: 'Load',
        email: `load-${process.pid}-${sequence++}@load.example.com`,
      }),
    }),
    patchUser: () => ({
      method: 'PATCH',
      path: `/api/v1/users/${pick(config.patchIds)}`,
      headers: { ...auth },
      body: JSON.stringify({ name: `Patched ${sequence++}` }),
    }),
    login: () => login(PASSWORDS.user),
    badLogin: () => login('not-the-password'),
  };
  // One request whose kind is drawn per send, by the mix's weights: every connection mixes
  // kinds from its first request on (autocannon walks a `requests` list from the start).
  const weighted = MIX.flatMap(([kind, times]) => Array.from({ length: times }, () => kind));
  const request = {
    setupRequest: (base: object, context: { kind?: Kind }) => {
      const kind = pick(weighted) as Kind;
      context.kind = kind;
      return { ...base, ...build[kind]() };
    },
    onResponse: (status: number, body: string, context: { kind?: Kind }) => {
      const kind = context.kind ?? 'unknown';
      const byStatus = (statuses[kind] ??= {});
      byStatus[status] = (byStatus[status] ?? 0) + 1;
      if (kind === 'createUser' && status === 201)
        created.push((JSON.parse(body) as { email: string }).email);
    },
  };
  const started = Date.now();
  const instance = autocannon({
    url: config.url,
    connections: config.connections,
    duration: config.durationS,
    timeout: 10,
    requests: [request],
  });
  instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => {
    perSecond[Math.min(config.durationS, Math.floor((Date.now() - started) / 1000))]?.push(ms);
  });
  instance.on('reqError', (error: Error) => {
    if (error.message === 'request timed out') timeouts += 1;
    else errors[error.message] = (errors[error.message] ?? 0) + 1;
  });
  await instance;
  return { perSecond: perSecond.slice(0, config.durationS), statuses, created, errors, timeouts };
}

function runGenerator(config: GeneratorConfig): Promise<GeneratorResult> {
  const child = fork(fileURLToPath(import.meta.url), ['--generator'], { stdio: 'inherit' });
  child.send(config);
  return new Promise((resolve, reject) => {
    child.once('message', (result) => resolve(result as GeneratorResult));
    child.once('exit', (code) => reject(new Error(`the load generator exited ${code}`)));
  });
}

async function startServer(dbFile: string): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(
    process.execPath,
    [
      'bin/apikit.js',
      'serve',
      '--db',
      dbFile,
      '--port',
      '0',
      '--rate-limit',
      '0',
      '--login-rate-limit',
      '0',
      '--log-format',
      'off',
    ],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        APIKIT_ADMIN_PASSWORD: PASSWORDS.admin,
        APIKIT_USER_PASSWORD: PASSWORDS.user,
        APIKIT_JWT_SECRET: SECRET,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no address within 30 s: ${out}`)), 30_000);
    child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once('exit', (code) => reject(new Error(`apikit serve exited ${code}: ${out}`)));
  });
  child.stdout?.resume();
  return { url, child };
}

async function loginToken(api: string): Promise<string> {
  const res = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin@example.com', password: PASSWORDS.admin }),
  });
  if (res.status !== 200) throw new Error(`login: ${res.status}`);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

async function createUser(api: string, token: string, email: string): Promise<number> {
  const res = await fetch(`${api}/users`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: 'Pool', email }),
  });
  if (res.status !== 201) throw new Error(`create ${email}: ${res.status}`);
  return ((await res.json()) as { id: number }).id;
}

function latency(values: number[]): { count: number; p50: number; p99: number; max: number } {
  const sorted = [...values].sort((a, b) => a - b);
  const ms = (value: number | undefined) => Math.round((value ?? 0) * 10) / 10;
  const at = (q: number) => ms(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]);
  return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: ms(sorted.at(-1)) };
}

/** VmRSS of a running process, in bytes (Linux /proc). */
function rssOf(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0) * 1024;
}

function readDataset(file: string): { users: Record<string, { email: string }> } {
  return JSON.parse(readFileSync(file, 'utf8')) as { users: Record<string, { email: string }> };
}

/** Pretty JSON as the repository's formatter writes it, so `npm run check` stays clean. */
async function formatJson(file: string, value: unknown): Promise<string> {
  const text = JSON.stringify(value, null, 2) + '\n';
  try {
    const prettier = await import('prettier');
    return await prettier.format(text, { ...(await prettier.resolveConfig(file)), parser: 'json' });
  } catch {
    return text; // prettier is a dev dependency: without it, plain JSON
  }
}

const mib = (bytes: number) => Math.round(bytes / MiB);

/** The directory holding package.json: the same from bench/ (source) and dist/bench/ (built). */
function findRepoRoot(from: string): string {
  for (let dir = from, up = 0; up < 5; dir = dirname(dir), up += 1) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'bin', 'apikit.js')))
      return dir;
  }
  throw new Error(`no repository root above ${from}`);
}
