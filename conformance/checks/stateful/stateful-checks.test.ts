import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../../test/start-test-server.js';
import type { ConformanceReport } from '../../report.js';
import { runConformance } from '../../run-conformance.js';
import { statefulChecks } from './stateful-checks.js';

const names = statefulChecks.map((c) => c.name);

describe('stateful checks against the reference server', () => {
  let server: TestServer;
  let report: ConformanceReport;

  beforeAll(async () => {
    server = await startTestServer();
    report = await runConformance({
      baseUrl: server.api,
      username: 'user@example.com',
      password: TEST_USER_PASSWORD,
      adminUsername: 'admin@example.com',
      adminPassword: TEST_ADMIN_PASSWORD,
      checks: names,
      seed: 11,
    });
  }, 30_000);
  afterAll(() => server?.close());

  it('finds no violation', () => {
    const failed = report.results
      .filter((r) => r.status === 'failed')
      .map((r) => `${r.check} ${r.operationId}: ${r.message} | ${r.expected} | ${r.actual}`);
    expect(failed).toEqual([]);
  });

  it.each(names)('%s judged something', (name) => {
    const passed = report.results.filter((r) => r.check === name && r.status === 'passed');
    expect(passed.length).toBeGreaterThan(0);
  });

  it('deletes what it created', async () => {
    const res = await fetch(`${server.api}/users?size=100&sort=id,desc`, {
      headers: { Authorization: `Bearer ${server.adminToken}` },
    });
    const page = (await res.json()) as { content: { email: string }[] };
    expect(page.content.filter((u) => u.email.startsWith('conform-'))).toEqual([]);
  });
});
