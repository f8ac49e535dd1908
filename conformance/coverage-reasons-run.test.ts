import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_USER_PASSWORD, type TestServer } from '../test/start-test-server.js';
import type { ConformanceReport } from './report.js';
import { runConformance } from './run-conformance.js';

/**
 * The coverage reasons come from what a run knew, against a real target: its credentials, its
 * checks, the target's rate-limit answers. Two narrow runs, one target without limits and one
 * announcing them.
 */
let open: TestServer;
let limited: TestServer;

beforeAll(async () => {
  [open, limited] = await Promise.all([
    startTestServer(),
    startTestServer({ rateLimit: 10_000, loginRateLimit: 1000 }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([open?.close(), limited?.close()]);
});

function reasonOf(report: ConformanceReport, operationId: string, status: string) {
  return report.coverage
    .find((row) => row.operationId === operationId)
    ?.unexercised?.find((u) => u.status === status)?.reason;
}

describe('why a documented status was not received, from the run', () => {
  it('without credentials and with some checks: no-credentials, check-not-selected, and the catalog', async () => {
    const report = await runConformance({
      baseUrl: open.api,
      checks: ['not_a_server_error', 'ignored_auth'],
      seed: 1,
      maxExamples: 1,
    });
    expect(reasonOf(report, 'getUser', '200')).toBe('no-credentials');
    expect(reasonOf(report, 'getUser', '503')).toBe('server-fault');
    expect(reasonOf(report, 'getUser', '429')).toBe('rate-limit-off');
    expect(reasonOf(report, 'optionsUser', '404')).toBe('route-always-matches');
    // Open, and nothing stood in the way but the checks left out. (Its 400 is received: a
    // probe's answer counts like any other, 0129.)
    expect(reasonOf(report, 'login', '415')).toBe('check-not-selected');
    expect(report.summary.coverage?.notReached).toBe(0);
  }, 60_000);

  it('a target announcing rate limits: its 429 is paced around, not a gap', async () => {
    const report = await runConformance({
      baseUrl: limited.api,
      username: 'user@example.com',
      password: TEST_USER_PASSWORD,
      checks: ['not_a_server_error'],
      seed: 1,
      maxExamples: 1,
    });
    expect(report.summary.rateLimits?.length).toBeGreaterThan(0);
    expect(reasonOf(report, 'getUser', '429')).toBe('rate-limit-paced');
    // The run holds no ADMIN credential: a role-bound operation's success needs one.
    expect(reasonOf(report, 'resetData', '204')).toBeUndefined(); // destructive: no row
    expect(report.summary.coverage?.destructiveLeftOut).toEqual(['resetData']);
    expect(reasonOf(report, 'blockUser', '200')).toBe('no-credentials');
  }, 60_000);
});
