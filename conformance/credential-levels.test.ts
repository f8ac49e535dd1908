import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../mocks/server/start-mock-server.js';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../test/start-test-server.js';
import type { ConformanceOptions } from './run-conformance.js';
import { runConformance } from './run-conformance.js';

/**
 * Never cry wolf (decision 0017, issue 20): a correct target passes with no credentials, with
 * a USER only, and with USER + ADMIN. What the run cannot judge without a credential is
 * skipped with the reason, never failed. Both implementations, rate limits off, few examples.
 */

const MOCK_ADMIN_PASSWORD = 'levels-admin-password';
const MOCK_USER_PASSWORD = 'levels-user-password';

let reference: TestServer;
let mocks: RunningMockServer;

beforeAll(async () => {
  [reference, mocks] = await Promise.all([
    startTestServer(),
    startMockServer({
      port: 0,
      adminPassword: MOCK_ADMIN_PASSWORD,
      userPassword: MOCK_USER_PASSWORD,
      jwtSecret: 'levels-secret-0123456789-0123456789-0123456789',
    }),
  ]);
}, 60_000);
afterAll(async () => {
  await Promise.all([reference?.close(), mocks?.close()]);
});

type Level = 'no credentials' | 'USER only' | 'USER + ADMIN';
const LEVELS: Level[] = ['no credentials', 'USER only', 'USER + ADMIN'];

function credentials(level: Level, user: string, admin: string): Partial<ConformanceOptions> {
  if (level === 'no credentials') return {};
  const asUser = { username: 'user@example.com', password: user };
  if (level === 'USER only') return asUser;
  return { ...asUser, adminUsername: 'admin@example.com', adminPassword: admin };
}

const targets = [
  {
    name: 'the reference server',
    api: () => reference.api,
    user: TEST_USER_PASSWORD,
    admin: TEST_ADMIN_PASSWORD,
  },
  {
    name: 'the MSW mocks',
    api: () => `${mocks.url}/api/v1`,
    user: MOCK_USER_PASSWORD,
    admin: MOCK_ADMIN_PASSWORD,
  },
];

describe.each(targets)('against $name', ({ api, user, admin }) => {
  it.each(LEVELS)(
    'a run with %s finds no failure, and every skip carries its reason',
    async (level) => {
      const report = await runConformance({
        baseUrl: api(),
        seed: 20,
        maxExamples: 2,
        ...credentials(level, user, admin),
      });
      const failures = report.results
        .filter((r) => r.status === 'failed')
        .map((r) => `${r.check} ${r.operationId}: ${r.message} (${r.actual ?? ''})`);
      expect(failures).toEqual([]);
      expect(report.summary.incomplete).toBeUndefined();
      // Never called partial: every operation is there, whatever the credentials (0096).
      expect(report.summary.implemented?.missing).toEqual([]);
      expect(report.summary.results.passed).toBeGreaterThan(level === 'no credentials' ? 50 : 300);
      const silent = report.results.filter((r) => r.status === 'skipped' && !r.message.trim());
      expect(silent).toEqual([]);
      if (level !== 'USER + ADMIN') {
        // The role checks say why they did not run.
        expect(
          report.results.some(
            (r) => r.status === 'skipped' && /admin credentials|no credentials/.test(r.message),
          ),
        ).toBe(true);
      }
    },
    120_000,
  );
});
