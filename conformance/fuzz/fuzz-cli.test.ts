import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/run-cli.js';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../test/start-test-server.js';
import type { ConformanceReport } from '../report.js';
import type { FuzzStats } from './fuzz-tally.js';

describe('apikit conform --fuzz', () => {
  it('refuses --fuzz-only without --fuzz N, and a negative N', async () => {
    const only = await runCli(['conform', 'http://127.0.0.1:9/api/v1', '--fuzz-only']);
    expect(only.code).toBe(2);
    expect(only.stderr).toMatch(/--fuzz-only needs --fuzz N/);
    const negative = await runCli(['conform', 'http://127.0.0.1:9/api/v1', '--fuzz', '-1']);
    expect(negative.code).toBe(2);
    expect(negative.stderr).toMatch(/--fuzz must be an integer >= 0/);
  });

  it('lists the fuzz checks with --list-checks', async () => {
    const result = await runCli(['conform', '--list-checks']);
    for (const name of [
      'fuzz_no_server_error',
      'fuzz_response_conformance',
      'fuzz_read_back',
      'fuzz_header_injection',
    ])
      expect(result.stdout).toMatch(new RegExp(`^${name} +Fuzz: `, 'm'));
  });

  describe('against the reference server', () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startTestServer();
    });
    afterAll(() => server?.close());

    it('runs the fuzz phase only, prints the seed and requests/s, and reports the numbers in JSON', async () => {
      const result = await runCli(
        [
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
          '--include',
          'createUser,getUser,listUsers',
          '--fuzz',
          '5',
          '--fuzz-only',
          '--seed',
          '5',
          '--reporter',
          'json',
        ],
        { timeoutMs: 60_000 },
      );
      expect(result.stderr).toMatch(/repeat with --seed 5 --fuzz 5 --fuzz-only/);
      expect(result.stderr).toMatch(
        /^fuzz: \d+ requests in [\d.]+ s \(\d+ requests\/s\).* 0 5xx · 0 schema violations/m,
      );
      expect(result.code).toBe(0);
      const report = JSON.parse(result.stdout) as ConformanceReport & {
        summary: { fuzz: FuzzStats };
      };
      expect(report.summary.checks).toContain('fuzz_read_back');
      expect(report.summary.checks).not.toContain('negative_data_rejection');
      expect(report.summary.fuzz).toMatchObject({
        seed: 5,
        perOperation: 5,
        // The three and the OPTIONS of their two paths, in scope with them (decision 0096).
        operations: 5,
        cases: 25,
        serverErrors: 0,
      });
      expect(report.summary.fuzz.requestsPerSecond).toBeGreaterThan(0);
    });
  });
});
