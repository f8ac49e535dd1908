import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../../test/start-test-server.js';
import type { ConformanceReport } from '../../report.js';
import { runConformance } from '../../run-conformance.js';

describe('check_order against the reference server', () => {
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
      checks: ['check_order'],
      seed: 11,
    });
  }, 30_000);
  afterAll(() => server?.close());

  it('finds no violation', () => {
    const failed = report.results.filter((r) => r.status === 'failed').map((r) => r.message);
    expect(failed).toEqual([]);
  });

  // The 403 before the size limit and the media type (decision 0128): each pair is really sent.
  it.each(['size', 'media-type'])('judges authorization before %s', (step) => {
    const passed = report.results.filter((r) => r.status === 'passed').map((r) => r.message);
    expect(passed).toContain(`authorization and ${step} broken: 403, authorization first`);
  });
});
