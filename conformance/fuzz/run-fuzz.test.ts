import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../test/start-test-server.js';
import type { ConformanceReport } from '../report.js';
import type { FuzzOutcome } from './run-fuzz.js';
import { failuresOf, fuzzOnly } from './test-support/fuzz-only.js';

/**
 * The CI fuzz: a small seeded fuzz phase (15 cases per operation) against the real reference
 * server. The longer one is documented (`apikit conform <url> --fuzz 200 --seed 1`).
 */
let server: TestServer;
let report: ConformanceReport;
let outcome: FuzzOutcome;

beforeAll(async () => {
  server = await startTestServer();
  ({ report, outcome } = await fuzzOnly({
    baseUrl: server.api,
    username: 'user@example.com',
    password: TEST_USER_PASSWORD,
    adminUsername: 'admin@example.com',
    adminPassword: TEST_ADMIN_PASSWORD,
    seed: 20261122,
    perOperation: 15,
  }));
}, 120_000);
afterAll(() => server?.close());

describe('a seeded fuzz phase against the reference server', () => {
  it('finds no 5xx, no answer off the spec, no read-back mismatch and no header injection', () => {
    expect(failuresOf(report)).toEqual([]);
    const { serverErrors, violations, readBackMismatches, headerInjections } = outcome.stats;
    expect({ serverErrors, violations, readBackMismatches, headerInjections }).toEqual({
      serverErrors: 0,
      violations: 0,
      readBackMismatches: 0,
      headerInjections: 0,
    });
  });

  it('fuzzed every operation but the destructive one, and reached both sides of validation', () => {
    expect(outcome.skipped).toEqual([]);
    const fuzzed = outcome.verdicts.map((v) => v.op.operationId);
    expect(fuzzed).toHaveLength(report.coverage.length);
    expect(fuzzed).not.toContain('resetData');
    for (const v of outcome.verdicts) expect(v.cases).toBeGreaterThan(0);
    const statuses = Object.keys(outcome.stats.statuses).map(Number);
    for (const status of [200, 201, 204, 400, 404, 413, 415]) expect(statuses).toContain(status);
    expect(outcome.stats.readBacks).toBeGreaterThan(20);
    expect(outcome.stats.requests).toBeGreaterThanOrEqual(outcome.stats.cases);
    expect(outcome.stats.requestsPerSecond).toBeGreaterThan(0);
  });

  it('records one result per oracle and operation, with the numbers', () => {
    const passed = report.results.filter(
      (r) => r.status === 'passed' && r.check.startsWith('fuzz_'),
    );
    expect(passed.some((r) => /^15 fuzz case\(s\) judged \(.*400×\d+/.test(r.message))).toBe(true);
    expect(
      passed.some((r) => r.check === 'fuzz_read_back' && /read back as written/.test(r.message)),
    ).toBe(true);
  });

  it('leaves the target as it found it: what the fuzz created is deleted', async () => {
    const res = await fetch(`${server.api}/users?size=100`, {
      headers: { Authorization: `Bearer ${server.adminToken}` },
    });
    const page = (await res.json()) as { content: { email: string }[]; totalElements: number };
    expect(page.content.filter((u) => u.email.startsWith('conform-'))).toEqual([]);
    expect(page.totalElements).toBe(36);
  });
});
