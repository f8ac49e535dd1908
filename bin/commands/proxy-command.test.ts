import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../node-runtime/start-prism.js';
import { startCli, type RunningCli } from '../../test/support/mock-server/start-cli.js';
import { createServer as createReferenceServer } from '../../reference-server/create-server.js';
import { packageRoot } from '../../spec/spec-path.js';
import { runCli } from '../../test/run-cli.js';
import { withoutPackages } from '../../test/support/cli/without-packages.js';

// Runs the built CLI: `npm run build` first (npm test does).

/** A deliberately wrong backend: GET /api/v1/users/1 lacks most required fields and headers. */
let backend: Server;
let backendUrl: string;
const received: string[] = [];
let proxy: RunningCli | undefined;

beforeAll(async () => {
  backend = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    if (req.url === '/api/v1/users/1') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ id: 1, name: 'Ada Admin' }));
    } else if (req.url === '/healthz') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ status: 'ok' }));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
}, 30_000);

afterAll(async () => {
  await proxy?.stop();
  backend.closeAllConnections();
  await new Promise((resolve) => backend.close(resolve));
}, 30_000);

describe('apikit proxy <targetUrl>', () => {
  it('starts in front of the backend and says how paths map', async () => {
    proxy = await startCli(['proxy', backendUrl, '--port', '0'], 90_000);
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(proxy.stdout()).toContain(`${proxy.url}/api/v1 -> ${backendUrl}/api/v1`);
  }, 120_000);

  it('passes the answer through and prints the violation: method, path, what is wrong', async () => {
    const res = await fetch(`${proxy!.url}/api/v1/users/1`, {
      headers: { Authorization: 'Bearer any-token' },
    });
    // The client still gets the backend's answer, as it was.
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 1, name: 'Ada Admin' });
    expect(received).toContain('GET /api/v1/users/1');
    const out = await proxy!.waitForOutput(/property 'email'/);
    const lines = out.split('\n').filter((l) => l.startsWith('violation'));
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^violation: GET \/api\/v1\/users\/1 -> 200: response\.body: .*required property 'email'/,
      ),
    );
    expect(lines).toContainEqual(expect.stringMatching(/response\.header: .*'x-request-id'/));
  });

  it('sends paths outside the API straight to the backend, unvalidated', async () => {
    const res = await fetch(`${proxy!.url}/healthz`);
    expect(await res.json()).toEqual({ status: 'ok' });
    expect(received).toContain('GET /healthz');
  });

  it('on SIGINT prints the summary by operation and exits 1, since it saw violations', async () => {
    proxy!.child.kill('SIGINT');
    const { code, signal } = await proxy!.stop();
    expect({ code, signal }).toEqual({ code: 1, signal: null });
    expect(proxy!.stdout()).toMatch(
      /apikit proxy: 2 requests \(1 validated\), [1-9]\d* violations?, .* rejected as documented/,
    );
    expect(proxy!.stdout()).toMatch(/^ {2}getUser: [1-9]\d* violations? in 1 request$/m);
  }, 20_000);

  it('runs the command after --, with APIKIT_PROXY_URL, then stops: exit 1 on violations', async () => {
    const script =
      "fetch(process.env.APIKIT_PROXY_URL + '/users/1', { headers: { Authorization: 'Bearer x' } })" +
      '.then((r) => console.log("through the proxy:", r.status))';
    const result = await runCli(
      ['proxy', backendUrl, '--port', '0', '--', process.execPath, '-e', script],
      { timeoutMs: 60_000 },
    );
    expect(result.stdout).toContain('through the proxy: 200');
    expect(result.stdout).toMatch(/^ {2}getUser: [1-9]\d* violations? in 1 request$/m);
    expect(result.code).toBe(1);
    const failing = await runCli(
      ['proxy', backendUrl, '--port', '0', '--', process.execPath, '-e', 'process.exit(3)'],
      { timeoutMs: 60_000 },
    );
    // The command's own failure comes first: the tests failed.
    expect(failing.code).toBe(3);
    expect(failing.stdout).toMatch(/apikit proxy: 0 requests/);
  }, 120_000);

  it('--errors: a wrong answer becomes a problem from Prism, still a violation (exit 1)', async () => {
    const script =
      "fetch(process.env.APIKIT_PROXY_URL + '/users/1', { headers: { Authorization: 'Bearer x' } })" +
      '.then(async (r) => console.log("through the proxy:", r.status, r.headers.get("content-type")))';
    const result = await runCli(
      ['proxy', backendUrl, '--port', '0', '--errors', '--', process.execPath, '-e', script],
      { timeoutMs: 60_000 },
    );
    expect(result.stdout).toMatch(/through the proxy: 5\d\d application\/problem\+json/);
    expect(result.stdout).toMatch(/^violation: GET \/api\/v1\/users\/1 -> 5\d\d: response/m);
    expect(result.code).toBe(1);
  }, 120_000);

  it('without Prism installed names it and its install line, not the spec (exit 2)', async () => {
    const result = await runCli(['proxy', backendUrl, '--port', '0'], {
      env: withoutPackages(['@stoplight/prism-cli']),
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe(
      'apikit: apikit proxy needs @stoplight/prism-cli, which is not installed: npm i -D @stoplight/prism-cli@^5.14.0',
    );
  });

  it('refuses a target that is not an http(s) URL (exit 2)', async () => {
    const result = await runCli(['proxy', 'ftp://example.com']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('not an http(s) URL');
  });
});

describe('apikit proxy in front of the reference server (a correct backend)', () => {
  let server: Awaited<ReturnType<typeof createReferenceServer>>;
  beforeAll(async () => {
    server = await createReferenceServer({
      port: 0,
      memory: true,
      rateLimit: 0,
      loginRateLimit: 0,
    });
  });
  afterAll(() => server?.close());

  it('reports no violation for a documented 401, exits 0 after --exit-after, JSON report', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'apikit-proxy-'));
    const port = await freePort();
    const output = join(dir, 'nested', 'proxy.json');
    const run = runCli(
      [
        'proxy',
        server.url,
        '--port',
        String(port),
        '--reporter',
        'json',
        '--exit-after',
        '8',
        '-o',
        output,
      ],
      { timeoutMs: 60_000 },
    );
    const base = `http://127.0.0.1:${port}/api/v1`;
    await waitUntilListening(base);
    // No token on a secured operation: the contract's own answer is 401.
    const anonymous = await fetch(`${base}/users`);
    expect(anonymous.status).toBe(401);
    // A malformed token and a bad body: refused with 401 as documented.
    const bad = await fetch(`${base}/users`, {
      method: 'POST',
      headers: { Authorization: 'Bearer nope', 'Content-Type': 'application/json' },
      body: '{"name":""}',
    });
    expect(bad.status).toBe(401);
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin@example.com', password: 'admin-demo-password' }),
    });
    expect(login.status).toBe(200);
    const { accessToken } = (await login.json()) as { accessToken: string };
    const list = await fetch(`${base}/users?size=2`, {
      headers: { Authorization: `Bearer ${accessToken}` },
    });
    expect(list.status).toBe(200);

    const result = await run;
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.summary).toMatchObject({
      stoppedBy: 'after 8 s',
      // The /healthz that found it listening, then four API calls.
      requests: 5,
      validated: 4,
      violations: 0,
      warnings: 0,
      byOperation: {
        listUsers: { requests: 2, violations: 0 },
        createUser: { requests: 1, violations: 0 },
        login: { requests: 1, violations: 0 },
      },
    });
    // The refused requests are counted, not reported as violations.
    expect(report.summary.rejected).toBeGreaterThanOrEqual(2);
    expect(report.violations).toEqual([]);
    expect(report.rejected.map((r: { status: number }) => r.status)).toEqual(
      expect.arrayContaining([401]),
    );
    expect(result.stderr).not.toMatch(/^violation/m);
    expect(JSON.parse(readFileSync(output, 'utf8'))).toEqual(report);
  }, 90_000);

  it('a whole conform run through it against the reference server: 0 violations, exit 0', async () => {
    // The CI form: the proxy runs the command and judges every exchange of it.
    const conform = [
      `node ${JSON.stringify(join(packageRoot, 'bin', 'apikit.js'))} conform "$APIKIT_PROXY_URL"`,
      '--username user@example.com --password user-demo-password',
      '--admin-username admin@example.com --admin-password admin-demo-password',
    ].join(' ');
    const result = await runCli(
      ['proxy', server.url, '--port', '0', '--reporter', 'json', '--', 'sh', '-c', conform],
      { timeoutMs: 120_000 },
    );
    expect(result.code, result.stderr.slice(-3000)).toBe(0);
    const report = JSON.parse(result.stdout.slice(result.stdout.indexOf('{\n  "summary"')));
    expect(report.summary.commandStatus).toBe(0);
    // Conform's negative cases are refused as documented; none of its exchanges breaks the contract.
    expect(report.summary.validated).toBeGreaterThan(1000);
    expect(report.summary.rejected).toBeGreaterThan(100);
    expect(report.violations).toEqual([]);
    expect(report.summary.violations).toBe(0);
  }, 150_000);

  it('--errors: Prism answers a bad request itself with its problem, not the backend', async () => {
    const port = await freePort();
    const run = runCli(
      ['proxy', server.url, '--port', String(port), '--errors', '--exit-after', '6'],
      { timeoutMs: 60_000 },
    );
    const base = `http://127.0.0.1:${port}/api/v1`;
    await waitUntilListening(base);
    const login = await fetch(`${base}/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin@example.com', password: 'admin-demo-password' }),
    });
    const { accessToken } = (await login.json()) as { accessToken: string };
    const before = server.store!.data.users.length;
    const bad = await fetch(`${base}/users`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json' },
      body: '{"name":"","email":"x@example.com","age":30}',
    });
    expect(bad.status).toBe(422);
    expect(bad.headers.get('content-type')).toMatch(/problem\+json/);
    const problem = (await bad.json()) as { status: number; validation: unknown[] };
    expect(problem.status).toBe(422);
    expect(problem.validation.length).toBeGreaterThan(0);
    expect(server.store!.data.users.length).toBe(before);
    const result = await run;
    // Refused (by Prism, as asked): counted as rejected, not a violation of the backend.
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/0 violations, 0 warnings, 1 rejected as documented/);
  }, 90_000);
});

describe('apikit proxy judges the traffic as a whole (decision 0099)', () => {
  /** Fetches `path` through the proxy `times` times with `headers`; prints the statuses. */
  const client = (path: string, times: number, headers: Record<string, string> = {}) =>
    `(async () => { for (let i = 0; i < ${times}; i++) {` +
    ` const r = await fetch(process.env.APIKIT_PROXY_URL + ${JSON.stringify(path)},` +
    ` { headers: ${JSON.stringify(headers)} }); await r.arrayBuffer();` +
    ' console.log("through the proxy:", r.status); } })()';

  it('traffic that never succeeded: a warning, and exit 1 with --fail-on-no-success', async () => {
    const server = await createReferenceServer({ port: 0, memory: true, rateLimit: 0 });
    try {
      const run = (...flags: string[]) =>
        runCli(
          [
            'proxy',
            server.url,
            '--port',
            '0',
            ...flags,
            '--',
            process.execPath,
            '-e',
            client('/users', 3),
          ],
          { timeoutMs: 60_000 },
        );
      const warned = await run();
      const note =
        'apikit proxy: warning: nothing was validated: all 3 answers were 401 (no 2xx or 3xx: did a login fail?)';
      expect(warned.stdout).toMatch(/0 violations, 0 warnings, 3 rejected as documented/);
      expect(warned.stderr).toContain(note);
      expect(warned.code, warned.stderr).toBe(0);
      const failed = await run('--fail-on-no-success');
      expect(failed.stderr).toContain(note);
      expect(failed.stderr).toContain('apikit proxy: failing: --fail-on-no-success');
      expect(failed.code, failed.stderr).toBe(1);
    } finally {
      await server.close();
    }
  }, 120_000);

  it('a documented 500: a line per 5xx in the summary, and exit 1 with --fail-on-5xx', async () => {
    // Fails on every user as the contract allows it to: a Problem with the headers it demands.
    const failing = createServer((req, res) => {
      res.writeHead(500, {
        'Content-Type': 'application/problem+json',
        'Cache-Control': 'no-store',
        'X-Request-Id': 'r-1',
      });
      res.end(
        JSON.stringify({
          type: 'urn:apikit:problem:internal-error',
          title: 'Internal server error',
          status: 500,
          detail: 'An unexpected error occurred.',
          instance: req.url,
          requestId: 'r-1',
        }),
      );
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(failing.address() as AddressInfo).port}`;
    try {
      const script = client('/users/1', 1, { Authorization: 'Bearer x' });
      const run = (...flags: string[]) =>
        runCli(['proxy', url, '--port', '0', ...flags, '--', process.execPath, '-e', script], {
          timeoutMs: 60_000,
        });
      const passed = await run();
      expect(passed.stdout).toContain('through the proxy: 500');
      // Documented, so no violation: before 0099 this run passed without a word.
      expect(passed.stdout).toMatch(/1 validated\), 0 violations/);
      expect(passed.stdout).toMatch(/^ {2}5xx: GET \/api\/v1\/users\/1 -> 500 \(getUser\)$/m);
      expect(passed.stderr).toContain(
        'apikit proxy: warning: 1 answer was a server error (500), documented or not',
      );
      expect(passed.code, passed.stdout + passed.stderr).toBe(0);
      const failed = await run('--fail-on-5xx');
      expect(failed.stderr).toContain('apikit proxy: failing: --fail-on-5xx');
      expect(failed.code, failed.stdout + failed.stderr).toBe(1);
    } finally {
      failing.closeAllConnections();
      await new Promise((resolve) => failing.close(resolve));
    }
  }, 120_000);
});

/** Polls until the proxy answers (Prism takes a few seconds to start). */
async function waitUntilListening(base: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      await fetch(`${base.replace(/\/api\/v1$/, '')}/healthz`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`${base} never answered`);
}
