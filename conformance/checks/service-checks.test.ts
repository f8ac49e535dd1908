import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../test/start-test-server.js';
import { startMockServer, type RunningMockServer } from '../../mocks/server/start-mock-server.js';
import type { ConformanceReport } from '../report.js';
import { runConformance } from '../run-conformance.js';
import { serviceChecks } from './service-checks.js';

/**
 * The service checks (x-apikit-service) against the reference server with limits off and on
 * and against the mocks: nothing fails, and each judges something. What each catches is proven
 * by the broken targets of test/support/fault-injection/service-faults.ts.
 */
const names = serviceChecks.map((c) => c.name);
const run = (url: string, password: string, adminPassword: string) =>
  runConformance({
    baseUrl: `${url}/api/v1`,
    username: 'user@example.com',
    password,
    adminUsername: 'admin@example.com',
    adminPassword,
    checks: [...names, 'positive_data_acceptance'],
    // createUser makes the user serialized_writes patches: nothing outside the scope is called.
    include: ['getUser', 'updateUser', 'listCategories', 'login', 'createUser'],
    seed: 20261127,
  });

const failures = (report: ConformanceReport) =>
  report.results
    .filter((r) => r.status === 'failed')
    .map((r) => `${r.check} ${r.operationId}: ${r.message}`);
const passed = (report: ConformanceReport) =>
  new Set(report.results.filter((r) => r.status === 'passed').map((r) => r.check));

let plain: TestServer;
let limited: TestServer;
let mocks: RunningMockServer;

beforeAll(async () => {
  [plain, limited, mocks] = await Promise.all([
    startTestServer(),
    startTestServer({ rateLimit: 1000, loginRateLimit: 20 }),
    startMockServer({
      port: 0,
      adminPassword: TEST_ADMIN_PASSWORD,
      userPassword: TEST_USER_PASSWORD,
      jwtSecret: 'service-checks-secret-0123456789-0123456789',
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([plain?.close(), limited?.close(), mocks?.close()]);
});

describe('the service checks', () => {
  it('pass against the reference server with limits off, each but the RateLimit one judging', async () => {
    const report = await run(plain.url, TEST_USER_PASSWORD, TEST_ADMIN_PASSWORD);
    expect(failures(report)).toEqual([]);
    for (const name of names.filter((n) => n !== 'rate_limit_headers'))
      expect([...passed(report)]).toContain(name);
  });

  it('judge the RateLimit headers of a server with limits on', async () => {
    const report = await run(limited.url, TEST_USER_PASSWORD, TEST_ADMIN_PASSWORD);
    expect(failures(report)).toEqual([]);
    expect([...passed(report)]).toContain('rate_limit_headers');
  });

  it('see the login budget end in a 429 with Retry-After, only when asked to', async () => {
    const provoke = (url: string) =>
      runConformance({
        baseUrl: `${url}/api/v1`,
        username: 'user@example.com',
        password: TEST_USER_PASSWORD,
        checks: ['rate_limit_exceeded'],
        // The login budget is the check's alone: no probe of the route spends a login first.
        excludeChecks: ['operation_implemented'],
        include: ['login'],
        provokeRateLimits: true,
        seed: 20261127,
      });
    const limits = await provoke(limited.url);
    expect(failures(limits)).toEqual([]);
    expect([...passed(limits)]).toEqual(['rate_limit_exceeded']);
    const off = await provoke(plain.url);
    expect(off.results.map((r) => `${r.status}: ${r.message}`)).toEqual([
      expect.stringMatching(/^skipped: .*reports no rate limit/),
    ]);
  });

  it('pass against the mocks', async () => {
    const report = await run(mocks.url, TEST_USER_PASSWORD, TEST_ADMIN_PASSWORD);
    expect(failures(report)).toEqual([]);
    expect([...passed(report)]).toEqual(expect.arrayContaining(['open_routes', 'request_id_echo']));
  });

  it('reset the data and delete the USER account with --allow-destructive only, on the server and the mocks', async () => {
    for (const url of [plain.url, mocks.url]) {
      const reset = (allowDestructive: boolean) =>
        runConformance({
          baseUrl: `${url}/api/v1`,
          username: 'user@example.com',
          password: TEST_USER_PASSWORD,
          adminUsername: 'admin@example.com',
          adminPassword: TEST_ADMIN_PASSWORD,
          checks: ['admin_reset', 'deleted_user_token'],
          // What the two call: nothing outside the scope is (decision 0096).
          include: ['getUser', 'resetData', 'createUser', 'login', 'refreshToken', 'deleteUser'],
          allowDestructive,
          seed: 20261127,
        });
      const refused = await reset(false);
      const own = refused.results.filter((r) =>
        ['admin_reset', 'deleted_user_token'].includes(r.check),
      );
      expect(own.map((r) => r.status)).toEqual(['skipped', 'skipped']);
      const report = await reset(true);
      expect(failures(report)).toEqual([]);
      expect([...passed(report)].sort()).toEqual([
        'admin_reset',
        'deleted_user_token',
        'operation_implemented',
      ]);
    }
  });
});
