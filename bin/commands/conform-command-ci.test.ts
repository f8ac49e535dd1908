import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../../conformance/report.js';
import { packageRoot } from '../../spec/spec-path.js';
import { runCli } from '../../test/run-cli.js';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../test/start-test-server.js';

/**
 * `apikit conform` as a CI step (issue 20): options and output places checked before the
 * first request, headers for API keys, waiting for a service that is still starting, the
 * spec from a URL, and reports written also when the run is interrupted.
 */

const dir = mkdtempSync(join(tmpdir(), 'apikit-conform-ci-'));
let server: TestServer;
let requests = 0;

beforeAll(async () => {
  server = await startTestServer();
  server.server.prependListener('request', () => requests++);
});
afterAll(() => server?.close());

/** A quick run: a read-only scenario check and two response checks, on two operations. */
const QUICK = [
  '--checks',
  'get_is_safe,not_a_server_error,status_code_conformance',
  '--include',
  'listRoles,getUser',
];

describe('apikit conform in a CI job', () => {
  it('creates a missing --output directory (the README command) and writes the JUnit file in it', async () => {
    const out = join(dir, 'fresh', 'reports') + '/';
    const result = await runCli(
      [
        'conform',
        server.api,
        ...QUICK,
        '--username',
        'user@example.com',
        '--password',
        TEST_USER_PASSWORD,
        '--reporter',
        'console',
        '--reporter',
        'junit',
        '--output',
        out,
      ],
      { timeoutMs: 60_000 },
    );
    expect(result.stderr).not.toMatch(/^apikit:/m);
    expect(result.code).toBe(0);
    const xml = readFileSync(join(out, 'report.junit.xml'), 'utf8');
    expect(XMLValidator.validate(xml)).toBe(true);
    expect(xml).toContain('<testcase name="not_a_server_error: GET /roles (listRoles)"');
    expect(result.stdout).toContain('against');
  });

  it.each([
    [
      'a file where the report directory must be',
      (file: string) => ['--reporter', 'json', '--reporter', 'junit', '--output', file],
      /--output .*is a file, but the reports need a directory there/,
    ],
    [
      'a directory below a file',
      (file: string) => ['--reporter', 'json', '--output', join(file, 'report.json')],
      /is a file, but the reports need a directory there/,
    ],
  ])('exits 2 before the first request on %s', async (_name, args, message) => {
    const file = join(dir, `plain-file-${Math.random().toString(36).slice(2)}`);
    writeFileSync(file, 'not a directory');
    const before = requests;
    const result = await runCli(['conform', server.api, ...QUICK, ...args(file)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(requests).toBe(before);
  });

  it.each([
    [
      ['--username', 'user@example.com', '--password', ''],
      /--password is empty \(a shell variable/,
    ],
    [['--admin-username', '', '--admin-password', 'x'], /--admin-username is empty/],
    [['-H', 'no colon here'], /--header "no colon here": expected 'Name: value'/],
    [['-H', 'Authorization: Bearer abc'], /--header Authorization: use --token/],
    [['--spec', 'no/such/spec.yaml'], /--spec no\/such\/spec.yaml: no such file/],
  ])('names the empty or wrong value up front: %j', async (args, message) => {
    const before = requests;
    const result = await runCli(['conform', server.api, ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(requests).toBe(before);
  });

  it('reads --spec from a URL', async () => {
    const result = await runCli(
      ['conform', server.api, ...QUICK, '--spec', `${server.url}/openapi.json`],
      { timeoutMs: 60_000 },
    );
    expect(result.stderr).not.toMatch(/^apikit:/m);
    expect(result.code).toBe(0);
  });

  it('names the spec URL that cannot be fetched', async () => {
    const result = await runCli(['conform', server.api, '--spec', `${server.url}/no-such.yaml`]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /cannot fetch http:\/\/127\.0\.0\.1:\d+\/no-such\.yaml: it answered 404/,
    );
  });

  it('sends -H headers on every request and keeps credential-like values out of the reports', async () => {
    // A target that fails every request, so the report records requests with their headers.
    const seen: IncomingHttpHeaders[] = [];
    const broken = createServer((req, res) => {
      seen.push(req.headers);
      res.writeHead(500, { 'Content-Type': 'text/plain' }).end('boom');
    });
    await listen(broken);
    const out = join(dir, 'headers.json');
    const result = await runCli([
      'conform',
      `http://127.0.0.1:${port(broken)}/api/v1`,
      '-H',
      'X-Api-Key: api-key-0123456789',
      '--header',
      'X-Tenant: acme',
      '--token',
      'token-of-the-user',
      '--checks',
      'get_is_safe,not_a_server_error',
      '--include',
      'listRoles',
      '--reporter',
      'json',
      '--output',
      out,
    ]);
    await close(broken);
    expect(result.code).toBe(1);
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((h) => h['x-api-key'] === 'api-key-0123456789')).toBe(true);
    expect(seen.every((h) => h['x-tenant'] === 'acme')).toBe(true);
    const text = readFileSync(out, 'utf8');
    expect(text).not.toContain('api-key-0123456789');
    const report = JSON.parse(text) as ConformanceReport;
    const failure = report.results.find((r) => r.status === 'failed');
    expect(failure?.request?.headers).toMatchObject({
      'X-Api-Key': '<X-Api-Key header>',
      'X-Tenant': 'acme',
    });
  });

  it('--wait-for-target waits for a service that starts late, saying so', async () => {
    const late = createServer((req, res) => void server.server.emit('request', req, res));
    const free = await freePort();
    const run = runCli(
      ['conform', `http://127.0.0.1:${free}/api/v1`, ...QUICK, '--wait-for-target', '30'],
      { timeoutMs: 60_000 },
    );
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await new Promise<void>((resolve) => late.listen(free, '127.0.0.1', resolve));
    const result = await run;
    await close(late);
    expect(result.stderr).toMatch(
      /waiting up to 30 s for http:\/\/127\.0\.0\.1:\d+\/api\/v1 to answer \(ECONNREFUSED\)/,
    );
    expect(result.stderr).toMatch(/answered \d+ after \d+\.\d s/);
    expect(result.code).toBe(0);
  });

  it('--wait-for-target gives up with exit 2 and a clear message', async () => {
    const free = await freePort();
    const result = await runCli([
      'conform',
      `http://127.0.0.1:${free}/api/v1`,
      '--wait-for-target',
      '1',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /apikit: the target did not answer within 1 s \(--wait-for-target\): .*ECONNREFUSED/,
    );
  });

  it('writes a partial report, saying so, when interrupted with SIGINT', async () => {
    const out = join(dir, 'interrupted');
    const child = spawn(
      process.execPath,
      [
        join(packageRoot, 'bin', 'apikit.js'),
        'conform',
        server.api,
        '--username',
        'user@example.com',
        '--password',
        TEST_USER_PASSWORD,
        '--admin-username',
        'admin@example.com',
        '--admin-password',
        TEST_ADMIN_PASSWORD,
        '--reporter',
        'json',
        '--reporter',
        'junit',
        '--output',
        out,
      ],
      { cwd: packageRoot, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    let sent = false;
    child.stderr.on('data', (d: Buffer) => {
      stderr += d;
      // Once the second check has started, there is something to report.
      if (!sent && /conform: 2\/\d+ /.test(stderr)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(sent).toBe(true);
    expect(code).toBe(130);
    expect(stderr).toMatch(/SIGINT: stopping after the requests in flight/);
    expect(stderr).toMatch(
      /the run did not finish: interrupted \(SIGINT\); the reports are partial/,
    );
    const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')) as ConformanceReport;
    expect(report.summary.incomplete).toBe('interrupted (SIGINT)');
    expect(report.summary.results.total).toBeGreaterThan(0);
    expect(existsSync(join(out, 'report.junit.xml'))).toBe(true);
    expect(readFileSync(join(out, 'report.junit.xml'), 'utf8')).toContain(
      'the run did not finish: interrupted (SIGINT)',
    );
    // Cleanup ran: nothing the run created is left behind.
    const res = await fetch(`${server.api}/users?size=100`, {
      headers: { Authorization: `Bearer ${server.adminToken}` },
    });
    const page = (await res.json()) as { content: { email: string }[] };
    expect(page.content.filter((u) => u.email.startsWith('conform-'))).toEqual([]);
  }, 60_000);
});

function listen(s: Server): Promise<void> {
  return new Promise((resolve) => s.listen(0, '127.0.0.1', resolve));
}
function port(s: Server): number {
  return (s.address() as AddressInfo).port;
}
function close(s: Server): Promise<void> {
  return new Promise((resolve) => s.close(() => resolve()));
}
async function freePort(): Promise<number> {
  const s = createServer();
  await listen(s);
  const p = port(s);
  await close(s);
  return p;
}
