import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../test/start-test-server.js';
import {
  ConformanceSetupError,
  createDefaultRegistry,
  listChecks,
  renderJsonReport,
  runConformance,
  type ConformanceOptions,
  type ConformanceReport,
} from './index.js';
import { IMPLIED_FUZZ_CASES } from './run-plan.js';

/** The fuzz phase from code (`user-order-apikit/conform`): its numbers are in the report it returns. */
describe('runConformance({ fuzz })', () => {
  let server: TestServer;
  let credentials: Pick<
    ConformanceOptions,
    'baseUrl' | 'username' | 'password' | 'adminUsername' | 'adminPassword'
  >;
  beforeAll(async () => {
    server = await startTestServer();
    credentials = {
      baseUrl: server.api,
      username: 'user@example.com',
      password: TEST_USER_PASSWORD,
      adminUsername: 'admin@example.com',
      adminPassword: TEST_ADMIN_PASSWORD,
    };
  });
  afterAll(() => server?.close());

  it('returns the fuzz summary in report.summary.fuzz, and the JSON report carries it', async () => {
    const report = await runConformance({
      ...credentials,
      include: ['createUser', 'getUser', 'listUsers'],
      seed: 5,
      fuzz: { perOperation: 5, concurrency: 4, only: true },
    });
    expect(report.summary.results.failed).toBe(0);
    const responseChecks = createDefaultRegistry()
      .all()
      .filter((c) => c.kind === 'response')
      .map((c) => c.name);
    expect(report.summary.checks).toEqual([
      // First: the fuzz phase must not fuzz operations the target lacks (decision 0096).
      'operation_implemented',
      ...responseChecks,
      'fuzz_no_server_error',
      'fuzz_response_conformance',
      'fuzz_read_back',
      'fuzz_header_injection',
    ]);
    expect(report.summary.fuzz).toMatchObject({
      seed: 5,
      perOperation: 5,
      // The three and the OPTIONS of their two paths, in scope with them (decision 0096).
      operations: 5,
      cases: 25,
      serverErrors: 0,
      violations: 0,
    });
    expect(report.summary.fuzz?.requests).toBeGreaterThanOrEqual(25);
    const json = JSON.parse(renderJsonReport(report)) as ConformanceReport;
    expect(json.summary.fuzz).toEqual(report.summary.fuzz);
  }, 60_000);

  it('runs the fuzz checks after the named ones, and has no fuzz summary without fuzz', async () => {
    const fuzzed = await runConformance({
      ...credentials,
      include: ['getUser'],
      seed: 7,
      checks: ['not_a_server_error'],
      fuzz: { perOperation: 2 },
    });
    expect(fuzzed.summary.checks.slice(0, 2)).toEqual([
      'operation_implemented',
      'not_a_server_error',
    ]);
    expect(fuzzed.summary.checks.slice(2)).toHaveLength(4);
    // getUser and the OPTIONS of its path, in scope with it (decision 0096).
    expect(fuzzed.summary.fuzz).toMatchObject({ perOperation: 2, operations: 2, cases: 4 });

    const plain = await runConformance({
      ...credentials,
      include: ['getUser'],
      seed: 7,
      checks: ['not_a_server_error'],
    });
    expect(plain.summary.checks).toEqual(['operation_implemented', 'not_a_server_error']);
    expect('fuzz' in plain.summary).toBe(false);
  }, 60_000);

  it('fuzzes when a fuzz check is named without fuzz: --list-checks names it (0096)', async () => {
    const report = await runConformance({
      ...credentials,
      include: ['getUser'],
      seed: 7,
      checks: ['fuzz_no_server_error'],
    });
    expect(report.summary.checks).toEqual(['operation_implemented', 'fuzz_no_server_error']);
    expect(report.summary.fuzz).toMatchObject({
      perOperation: IMPLIED_FUZZ_CASES,
      operations: 2,
      serverErrors: 0,
    });
    expect(report.summary.results.failed).toBe(0);
  }, 60_000);

  it('refuses a check name it does not know', async () => {
    const run = runConformance({ ...credentials, checks: ['fuzz_no_such_oracle'] });
    await expect(run).rejects.toBeInstanceOf(ConformanceSetupError);
    await expect(run).rejects.toThrow(/unknown check\(s\): fuzz_no_such_oracle/);
  });
});

describe('listChecks', () => {
  it('lists the registry’s checks, then the fuzz checks', () => {
    const names = listChecks().map((c) => c.name);
    expect(names.slice(0, -4)).toEqual(createDefaultRegistry().names);
    expect(names.slice(-4)).toEqual([
      'fuzz_no_server_error',
      'fuzz_response_conformance',
      'fuzz_read_back',
      'fuzz_header_injection',
    ]);
  });
});
