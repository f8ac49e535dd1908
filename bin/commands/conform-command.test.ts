import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../../conformance/report.js';
import { runCli } from '../../test/run-cli.js';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../test/start-test-server.js';

const dir = mkdtempSync(join(tmpdir(), 'apikit-conform-'));

describe('apikit conform', () => {
  it('exits 2 with a message when the target is unreachable', async () => {
    // Nothing listens on the discard port of loopback: the connection is refused at once.
    const result = await runCli(['conform', 'http://127.0.0.1:9/api/v1', '--seed', '7']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^apikit: the target is unreachable: .*ECONNREFUSED/m);
    expect(result.stderr).toContain('seed 7');
    expect(result.stdout).toBe('');
  });

  it.each([
    [['--concurrency', '0'], /--concurrency must be an integer >= 1/],
    [['--seed', 'abc'], /--seed must be an integer >= 0/],
    [['--reporter', 'xml'], /Invalid values:[\s\S]*reporter/],
    [['--reporter', 'json,junit'], /need --output <directory>/],
    [['--username', 'someone'], /--username and --password go together/],
    [
      ['--checks', 'no_such_check'],
      /unknown check\(s\): no_such_check; known: .*not_a_server_error/,
    ],
    [['--no-such-option'], /Unknown argument/],
  ])('exits 2 on bad options: %j', async (args, message) => {
    const result = await runCli(['conform', 'http://127.0.0.1:9/api/v1', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('exits 2 without a base URL', async () => {
    const result = await runCli(['conform']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/name the API base URL/);
  });

  it('--list-checks prints every check with its description and exits 0', async () => {
    const result = await runCli(['conform', '--list-checks']);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^not_a_server_error +No response is a 5xx/m);
    expect(result.stdout).toMatch(/^negative_data_rejection +\S/m);
    expect(result.stdout).toMatch(/^consumer_interactions +.*Runs with --interactions FILE/m);
    expect(result.stdout.trim().split('\n').length).toBeGreaterThan(10);
  });

  describe('against the reference server', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer();
    });
    afterAll(() => server?.close());

    it(
      'writes the json and junit reports and exits 0 when every check passes',
      { timeout: 240_000 },
      async () => {
        // Secrets from the environment, as the docs recommend, not the command line.
        process.env.APIKIT_CONFORM_PASSWORD = TEST_USER_PASSWORD;
        process.env.APIKIT_CONFORM_ADMIN_PASSWORD = TEST_ADMIN_PASSWORD;
        const out = join(dir, 'reports');
        const result = await runCli(
          [
            'conform',
            server.api,
            '--username',
            'user@example.com',
            '--admin-username',
            'admin@example.com',
            '--reporter',
            'json',
            '--reporter',
            'junit',
            '--output',
            out,
          ],
          { timeoutMs: 230_000 },
        );
        expect(result.stderr).not.toMatch(/^apikit:/m);
        expect(result.stdout).toBe('');
        const report = JSON.parse(
          readFileSync(join(out, 'report.json'), 'utf8'),
        ) as ConformanceReport;
        const { summary } = report;
        expect(summary.target).toBe(server.api);
        expect(result.stderr).toContain(
          `seed ${summary.seed} (repeat with --seed ${summary.seed})`,
        );
        expect(summary.requests).toBeGreaterThan(100);
        expect(summary.results.total).toBe(report.results.length);
        expect(report.coverage.length).toBeGreaterThan(10);

        const xml = readFileSync(join(out, 'report.junit.xml'), 'utf8');
        expect(XMLValidator.validate(xml)).toBe(true);
        const junit = new XMLParser({ ignoreAttributes: false }).parse(xml) as {
          testsuites: Record<string, unknown>;
        };
        expect(junit.testsuites).toMatchObject({
          '@_tests': String(summary.results.total),
          '@_failures': String(summary.results.failed),
          '@_skipped': String(summary.results.skipped),
        });
        expect(xml.match(/<testcase /g)?.length).toBe(summary.results.total);
        expect(xml.match(/<failure /g)?.length ?? 0).toBe(summary.results.failed);

        expect(result.code).toBe(summary.results.failed > 0 ? 1 : 0);
        const failures = report.results
          .filter((r) => r.status === 'failed')
          .map((r) => `${r.check}: ${r.operationId} ${r.method} ${r.path}: ${r.message}`);
        expect(failures, `seed ${summary.seed}`).toEqual([]);
        expect(result.code).toBe(0);
      },
    );
  });
});
