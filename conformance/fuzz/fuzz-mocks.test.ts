import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/server/start-mock-server.js';
import type { ConformanceReport } from '../report.js';
import type { FuzzOutcome } from './run-fuzz.js';
import { failuresOf, fuzzOnly } from '../../test/support/fuzz/fuzz-only.js';

/** The same seeded fuzz phase as against the reference server, against `apikit mock`. */
const ADMIN_PASSWORD = 'mock-admin-password';
const USER_PASSWORD = 'mock-user-password';

let server: RunningMockServer;
let report: ConformanceReport;
let outcome: FuzzOutcome;
const refused: string[] = [];

beforeAll(async () => {
  server = await startMockServer({
    port: 0,
    adminPassword: ADMIN_PASSWORD,
    userPassword: USER_PASSWORD,
    jwtSecret: 'mock-fuzz-secret-0123456789-0123456789-0123',
    passwordIterations: 1000,
    onViolation: (error, request) =>
      refused.push(`${request.method} ${request.path}: ${error.message}`),
  });
  ({ report, outcome } = await fuzzOnly({
    baseUrl: `${server.url}/api/v1`,
    username: 'user@example.com',
    password: USER_PASSWORD,
    adminUsername: 'admin@example.com',
    adminPassword: ADMIN_PASSWORD,
    seed: 20261122,
    perOperation: 15,
  }));
}, 120_000);
afterAll(() => server?.close());

describe('a seeded fuzz phase against the MSW mocks served over HTTP', () => {
  it('finds no 5xx, no answer off the spec, no read-back mismatch and no header injection', () => {
    expect(failuresOf(report)).toEqual([]);
    expect(refused).toEqual([]);
    expect(outcome.stats.serverErrors).toBe(0);
    expect(outcome.stats.violations).toBe(0);
  });

  it('fuzzed every selected operation and read accepted writes back', () => {
    expect(outcome.skipped).toEqual([]);
    expect(outcome.verdicts).toHaveLength(report.coverage.length);
    expect(outcome.stats.readBacks).toBeGreaterThan(20);
  });
});
