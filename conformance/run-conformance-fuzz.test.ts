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
      ...responseChecks,
      'fuzz_no_server_error',
      'fuzz_response_conformance',
      'fuzz_read_back',
      'fuzz_header_injection',
    ]);
    expect(report.summary.fuzz).toMatchObject({
      seed: 5,
      perOperation: 5,
      operations: 3,
      cases: 15,
      serverErrors: 0,
      violations: 0,
    });
    expect(report.summary.fuzz?.requests).toBeGreaterThanOrEqual(15);
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
    expect(fuzzed.summary.checks[0]).toBe('not_a_server_error');
    expect(fuzzed.summary.checks.slice(1)).toHaveLength(4);
    expect(fuzzed.summary.fuzz).toMatchObject({ perOperation: 2, operations: 1, cases: 2 });

    const plain = await runConformance({
      ...credentials,
      include: ['getUser'],
      seed: 7,
      checks: ['not_a_server_error'],
    });
    expect(plain.summary.checks).toEqual(['not_a_server_error']);
    expect('fuzz' in plain.summary).toBe(false);
  }, 60_000);

  it('refuses a fuzz check named without fuzz, saying how to fuzz', async () => {
    const run = runConformance({ ...credentials, checks: ['fuzz_read_back'] });
    await expect(run).rejects.toBeInstanceOf(ConformanceSetupError);
    await expect(run).rejects.toThrow(/fuzz_read_back run only in a fuzz phase/);
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
