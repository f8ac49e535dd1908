import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../../test/start-test-server.js';
import type { ConformanceReport } from '../../report.js';
import { runConformance } from '../../run-conformance.js';
import { probeChecks } from './probe-checks.js';

const names = probeChecks.map((c) => c.name);
/** The contract declares no required header parameter, so this check can only skip here. */
const SKIPS_ONLY = new Set(['missing_required_header']);

describe('probe checks against the reference server', () => {
  let server: TestServer;
  let report: ConformanceReport;

  beforeAll(async () => {
    server = await startTestServer();
    report = await runConformance({
      baseUrl: server.api,
      username: 'user@example.com',
      password: TEST_USER_PASSWORD,
      adminUsername: 'admin@example.com',
      adminPassword: TEST_ADMIN_PASSWORD,
      checks: names,
      seed: 7,
      maxExamples: 5,
    });
  }, 30_000);
  afterAll(() => server?.close());

  it('finds no violation', () => {
    const failed = report.results
      .filter((r) => r.status === 'failed')
      .map((r) => `${r.check} ${r.operationId}: ${r.message} | ${r.expected} | ${r.actual}`);
    expect(failed).toEqual([]);
  });

  it.each(names.filter((n) => !SKIPS_ONLY.has(n)))('%s judged something', (name) => {
    const passed = report.results.filter((r) => r.check === name && r.status === 'passed');
    expect(passed.length).toBeGreaterThan(0);
  });

  it('skips missing_required_header with its reason', () => {
    const own = report.results.filter((r) => r.check === 'missing_required_header');
    expect(own).toEqual([
      expect.objectContaining({
        status: 'skipped',
        message: expect.stringMatching(/required header/),
      }),
    ]);
  });
});
