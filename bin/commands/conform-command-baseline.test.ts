import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../../conformance/report.js';
import { runCli } from '../../test/run-cli.js';
import {
  startFaultProxy,
  type FaultHooks,
  type FaultProxy,
} from '../../test/support/fault-injection/fault-proxy.js';
import { etagMissing } from '../../test/support/fault-injection/answer-faults.js';
import { varyMissing } from '../../test/support/fault-injection/header-faults.js';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../test/start-test-server.js';

/**
 * `apikit conform --baseline` (issue 29, decision 0097): a team accepts today's failures and
 * fails only on new ones. The target is the reference server behind the fault proxy, broken
 * in getUser's headers: first without its ETag (the accepted failures), then also without
 * its Vary (a new failure of the same check and operation), then not at all (all fixed).
 */

const dir = mkdtempSync(join(tmpdir(), 'apikit-conform-baseline-'));
let server: TestServer;
let proxy: FaultProxy;
let requests = 0;

beforeAll(async () => {
  server = await startTestServer();
  server.server.prependListener('request', () => requests++);
  proxy = await startFaultProxy(server.url, {
    username: 'admin@example.com',
    password: TEST_ADMIN_PASSWORD,
  });
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
});
beforeEach(() => proxy?.use(undefined));

/** A short run: the checks of one operation, as the user and the admin. */
const conform = (...args: string[]) =>
  runCli(
    [
      'conform',
      `${proxy.url}/api/v1`,
      '--include',
      'getUser',
      '--username',
      'user@example.com',
      '--password',
      TEST_USER_PASSWORD,
      '--admin-username',
      'admin@example.com',
      '--admin-password',
      TEST_ADMIN_PASSWORD,
      ...args,
    ],
    { timeoutMs: 60_000 },
  );

/** Both faults at once: the response passes through each in turn. */
function both(...hooks: FaultHooks[]): FaultHooks {
  return {
    response: async (res, req, ctx) => {
      for (const h of hooks) res = h.response ? await h.response(res, req, ctx) : res;
      return res;
    },
  };
}

describe('apikit conform --baseline', { timeout: 120_000 }, () => {
  const file = join(dir, 'conform-baseline.json');

  it('--update-baseline accepts the failures of today, exit 0, and two seeds write the same file', async () => {
    proxy.use(etagMissing.create());
    const first = await conform('--seed', '1', '--baseline', file, '--update-baseline');
    expect(first.stderr).not.toMatch(/^apikit:/m);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(
      /conform: wrote .*conform-baseline\.json: \d+ known failure\(s\) \(\d+ added, 0 dropped\)/,
    );
    const text = readFileSync(file, 'utf8');
    const written = JSON.parse(text) as { apikitConformBaseline: number; entries: object[] };
    expect(written.apikitConformBaseline).toBe(1);
    expect(written.entries).toContainEqual({
      check: 'response_headers_conformance',
      operationId: 'getUser',
      rule: 'required header ETag is missing',
    });
    expect(text).not.toMatch(/127\.0\.0\.1|seed/);

    const other = join(dir, 'other-seed.json');
    proxy.use(etagMissing.create());
    const second = await conform('--seed', '2', '--baseline', other, '--update-baseline');
    expect(second.code).toBe(0);
    expect(readFileSync(other, 'utf8')).toBe(text);
  });

  it('--baseline is green while only the known failures fail, and still shows them', async () => {
    proxy.use(etagMissing.create());
    const result = await conform('--seed', '3', '--baseline', file);
    expect(result.stderr).not.toMatch(/^apikit:/m);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^Known failures \(baseline\) \(\d+\)$/m);
    expect(result.stdout).toMatch(/~ getUser GET \/users\/\{id\}: required header ETag is missing/);
    expect(result.stdout).not.toMatch(/^New failures/m);
    expect(result.stdout).toMatch(
      /^0 new failures, \d+ known \(baseline\), 0 fixed since the baseline$/m,
    );
  });

  it('a new failure fails the run and is named, in the console and in summary.baseline', async () => {
    proxy.use(both(etagMissing.create(), varyMissing.create()));
    const json = join(dir, 'report.json');
    const result = await conform(
      '--baseline',
      file,
      '--reporter',
      'console',
      '--reporter',
      'json',
      '--output',
      json,
    );
    expect(result.code).toBe(1);
    const fresh = result.stdout.slice(
      result.stdout.indexOf('New failures'),
      result.stdout.indexOf('Known failures'),
    );
    expect(fresh).toContain('required header Vary is missing');
    expect(fresh).not.toContain('ETag is missing');
    // The missing Vary is one break seen twice: on the GET, and on the HEAD by the check that
    // holds a HEAD to the headers its GET declares (head_declared_headers, 0127).
    expect(result.stdout).toMatch(
      /^2 new failures, \d+ known \(baseline\), 0 fixed since the baseline$/m,
    );
    const report = JSON.parse(readFileSync(json, 'utf8')) as ConformanceReport;
    expect(report.summary.baseline?.entries.new).toHaveLength(2);
    expect(report.summary.baseline?.entries.new).toEqual(
      expect.arrayContaining([
        {
          check: 'response_headers_conformance',
          operationId: 'getUser',
          rule: 'required header Vary is missing',
        },
        expect.objectContaining({ check: 'head_declared_headers', operationId: 'getUser' }),
      ]),
    );
    expect(report.results.filter((r) => r.status === 'failed' && !r.baselined)).toHaveLength(2);
  });

  it('lists the entries fixed since the baseline, green', async () => {
    const known = (JSON.parse(readFileSync(file, 'utf8')) as { entries: object[] }).entries.length;
    const result = await conform('--baseline', file);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Fixed since the baseline (${known})`);
    expect(result.stdout).toMatch(
      /✓ response_headers_conformance: getUser: required header ETag is missing/,
    );
    expect(result.stdout).toContain(
      `0 new failures, 0 known (baseline), ${known} fixed since the baseline`,
    );
  });

  it('a narrowed run calls no entry it did not judge fixed', async () => {
    const result = await conform('--baseline', file, '--checks', 'not_a_server_error');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/0 fixed since the baseline, \d+ not judged by this run/);
    expect(result.stdout).not.toContain('Fixed since the baseline');
  });

  it.each([
    [
      'an ESLint suppressions file',
      JSON.stringify({ 'src/a.js': { 'no-undef': { count: 1 } } }),
      /not an apikit conform baseline \(it looks like an ESLint suppressions file\)/,
    ],
    [
      'random JSON',
      '{"hello": "world"}',
      /not an apikit conform baseline \(no "apikitConformBaseline" field\)/,
    ],
    ['a broken file', '{"apikitConformBaseline": 1, "entries": [', /not JSON/],
  ])('exits 2 on %s, before the first request, with one line', async (_what, text, message) => {
    const foreign = join(dir, `foreign-${Math.random().toString(36).slice(2)}.json`);
    writeFileSync(foreign, text);
    const before = requests;
    for (const extra of [[], ['--update-baseline']]) {
      const result = await conform('--baseline', foreign, ...extra);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(
        result.stderr
          .trim()
          .split('\n')
          .filter((l) => l.startsWith('apikit:')),
      ).toHaveLength(1);
    }
    expect(requests).toBe(before);
    expect(readFileSync(foreign, 'utf8')).toBe(text);
  });

  it('exits 2 on a missing file without --update-baseline, saying how to write it', async () => {
    const missing = join(dir, 'no-such-baseline.json');
    const result = await conform('--baseline', missing);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `--baseline ${missing}: no such file; write it first with --baseline ${missing} --update-baseline`,
    );
  });

  it.each([
    [['--update-baseline'], /--update-baseline needs --baseline FILE/],
    [['--baseline', 'x.json', '--bail'], /--bail stops at the first failure, known or not/],
  ])('refuses %j', async (args, message) => {
    const result = await runCli(['conform', 'http://127.0.0.1:9/api/v1', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });
});
