import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../../test/start-test-server.js';
import {
  startTamperingProxy,
  type Tamper,
} from '../../../test/support/conformance/stateful-test-proxy.js';
import type { ConformanceReport } from '../../report.js';
import { runConformance } from '../../run-conformance.js';

const CHECK = 'preconditions_after_refusal';
const USER = 'user@example.com';
const ADMIN = 'admin@example.com';

/** A target that judges If-Match first, whatever the answer without it would be. */
const preconditionsFirst: Tamper = {
  request: (req) =>
    ['PUT', 'PATCH', 'DELETE'].includes(req.method) &&
    req.headers['if-match']?.includes('no-such-etag')
      ? { status: 412, headers: { 'content-type': 'application/problem+json' }, body: '{}' }
      : req,
};

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function run(baseUrl: string, admin = true): Promise<ConformanceReport> {
  return runConformance({
    baseUrl: `${baseUrl}/api/v1`,
    username: USER,
    password: TEST_USER_PASSWORD,
    ...(admin ? { adminUsername: ADMIN, adminPassword: TEST_ADMIN_PASSWORD } : {}),
    include: ['users'],
    checks: [CHECK],
    seed: 7,
  });
}

const verdicts = (report: ConformanceReport) =>
  Object.fromEntries(
    report.results.filter((r) => r.check === CHECK).map((r) => [r.operationId, r.status]),
  );

describe(CHECK, () => {
  it('passes the reference server: 403 and 404 stay with a failing If-Match', async () => {
    const report = await run(server.url);
    expect(verdicts(report)).toEqual({
      replaceUser: 'passed',
      updateUser: 'passed',
      deleteUser: 'passed',
    });
    const update = report.results.find((r) => r.check === CHECK && r.operationId === 'updateUser')!;
    expect(update.message).toMatch(/^403 .*; 404 /);
  });

  it('fails a target that answers 412 before its 403 and 404, with the request', async () => {
    const proxy = await startTamperingProxy(server.url, preconditionsFirst);
    try {
      const report = await run(proxy.url);
      expect(verdicts(report)).toEqual({
        replaceUser: 'failed',
        updateUser: 'failed',
        deleteUser: 'failed',
      });
      for (const failure of report.results.filter((r) => r.status === 'failed')) {
        expect(failure.expected).toMatch(/^40[34] for If-Match/);
        expect(failure.curl).toMatch(/^curl /);
      }
    } finally {
      await proxy.close();
    }
  });

  it('without admin credentials judges only the absent resource, and says why PUT is skipped', async () => {
    const report = await run(server.url, false);
    expect(verdicts(report)).toEqual({
      replaceUser: 'skipped',
      updateUser: 'passed',
      deleteUser: 'passed',
    });
    const put = report.results.find((r) => r.check === CHECK && r.operationId === 'replaceUser')!;
    expect(put.message).toContain('needs user and admin credentials');
  });
});
