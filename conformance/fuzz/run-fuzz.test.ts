import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../test/start-test-server.js';
import type { ConformanceReport } from '../report.js';
import { LOGIN_CASES, type FuzzOutcome } from './run-fuzz.js';
import { failuresOf, fuzzOnly } from '../../test/support/fuzz/fuzz-only.js';
import { startTamperingProxy } from '../../test/support/conformance/stateful-test-proxy.js';

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
    // Login is bounded, so that a login rate limit cannot turn the rest into 429s.
    expect(outcome.verdicts.find((v) => v.op.operationId === 'login')?.cases).toBe(LOGIN_CASES);
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

describe('a fuzz phase against a target that rate-limits logins', () => {
  let limited: TestServer;
  afterAll(() => limited?.close());

  it('counts 429s without waiting them out, and leaves the operation after three in a row', async () => {
    // Five logins a minute: two by startTestServer, two by the run's session, one for the fuzz.
    limited = await startTestServer({ loginRateLimit: 5 });
    const { report, outcome } = await fuzzOnly({
      baseUrl: limited.api,
      username: 'user@example.com',
      password: TEST_USER_PASSWORD,
      adminUsername: 'admin@example.com',
      adminPassword: TEST_ADMIN_PASSWORD,
      include: ['login'],
      // The budget above is counted for the fuzz alone: no probe of the route spends a login.
      excludeChecks: ['operation_implemented'],
      seed: 1,
      perOperation: 10,
    });
    expect(failuresOf(report)).toEqual([]);
    const [login] = outcome.verdicts;
    expect(login?.rateLimitedOut).toBe(true);
    expect(login?.statuses.get(429)).toBe(3);
    expect(login?.cases).toBe(4);
    expect(outcome.stats.rateLimitedOut).toEqual(['login']);
  });
});

describe('a fuzz phase that may destroy data (--allow-destructive)', () => {
  it('fuzzes the destructive operation alone, after every other operation is done', async () => {
    const target = await startTestServer();
    const seen: string[] = [];
    const proxy = await startTamperingProxy(target.url, {
      request: (req) => {
        seen.push(`${req.method} ${req.path.split('?')[0]}`);
        return req;
      },
    });
    try {
      const { report, outcome } = await fuzzOnly({
        baseUrl: `${proxy.url}/api/v1`,
        username: 'user@example.com',
        password: TEST_USER_PASSWORD,
        adminUsername: 'admin@example.com',
        adminPassword: TEST_ADMIN_PASSWORD,
        seed: 7,
        perOperation: 3,
        allowDestructive: true,
        // Its one invalid reset (refused, 400) comes first of the run; this is about the fuzz.
        excludeChecks: ['operation_implemented'],
      });
      expect(outcome.verdicts.map((v) => v.op.operationId)).toContain('resetData');
      const firstReset = seen.indexOf('POST /api/v1/admin/reset');
      expect(firstReset).toBeGreaterThan(0);
      // After the first reset only more resets, logins for fresh tokens and the run's cleanup.
      const after = seen
        .slice(firstReset)
        .filter((r) => !/^POST \/api\/v1\/(admin\/reset|auth\/)/.test(r) && !/^DELETE /.test(r));
      expect(after).toEqual([]);
      // The read-backs that cried wolf while a reset ran beside them (named, if any).
      expect(failuresOf(report)).toEqual([]);
    } finally {
      await proxy.close();
      await target.close();
    }
  }, 120_000);
});
