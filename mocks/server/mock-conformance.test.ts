import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance/run-conformance.js';
import type { ConformanceReport } from '../../conformance/report.js';
import { startMockServer, type RunningMockServer } from './start-mock-server.js';

/**
 * The acceptance test: the same full run that the reference server passes
 * (conformance/full-run.test.ts, same seed and credentials shape), against the MSW handlers
 * served over HTTP, with zero failures and no answer the mocks refused to send.
 */

const ADMIN_PASSWORD = 'mock-admin-password';
const USER_PASSWORD = 'mock-user-password';

let server: RunningMockServer;
let report: ConformanceReport;
const violations: string[] = [];

beforeAll(async () => {
  server = await startMockServer({
    port: 0,
    adminPassword: ADMIN_PASSWORD,
    userPassword: USER_PASSWORD,
    jwtSecret: 'mock-conformance-secret-0123456789-0123456789',
    onViolation: (error, request) =>
      violations.push(`${request.method} ${request.path}: ${error.message}`),
  });
  report = await runConformance({
    baseUrl: `${server.url}/api/v1`,
    username: 'user@example.com',
    password: USER_PASSWORD,
    adminUsername: 'admin@example.com',
    adminPassword: ADMIN_PASSWORD,
    seed: 20261121,
  });
}, 180_000);
afterAll(() => server?.close());

describe('a full conformance run against the MSW mocks served over HTTP', () => {
  it('finds no violation, as against the reference server', () => {
    const failures = report.results
      .filter((r) => r.status === 'failed')
      .map((r) => `${r.check} ${r.operationId}: ${r.message}`);
    expect(failures).toEqual([]);
    expect(violations).toEqual([]);
    expect(report.summary.results.passed).toBeGreaterThan(400);
  });

  it('sees only documented statuses, and cleans up what it created', async () => {
    expect(report.coverage.filter((row) => row.undocumented.length > 0)).toEqual([]);
    const res = await fetch(`${server.url}/api/v1/users?size=100`, {
      headers: { Authorization: `Bearer ${await token()}` },
    });
    const page = (await res.json()) as { content: { email: string }[] };
    expect(page.content.filter((u) => u.email.startsWith('conform-'))).toEqual([]);
  });
});

async function token(): Promise<string> {
  const res = await fetch(`${server.url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username: 'admin@example.com', password: ADMIN_PASSWORD }),
  });
  return ((await res.json()) as { accessToken: string }).accessToken;
}
