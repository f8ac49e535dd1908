import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../test/start-test-server.js';
import {
  startPrefixGateway,
  type PrefixGateway,
} from '../test/support/conformance/prefix-gateway.js';
import type { ConformanceReport } from './report.js';
import { runConformance } from './run-conformance.js';

/**
 * The reference server behind a gateway that serves it under /svc (decision 0098): the run at
 * http://gateway/svc/api/v1 judges Location and Link relative to that base URL, so the spec's
 * `^/api/v1/...` patterns hold for `/svc/api/v1/...`, and a full run finds nothing wrong.
 */
let server: TestServer;
let gateway: PrefixGateway;
let report: ConformanceReport;

beforeAll(async () => {
  server = await startTestServer();
  gateway = await startPrefixGateway(server.url, '/svc');
  report = await runConformance({
    baseUrl: `${gateway.url}/svc/api/v1`,
    username: 'user@example.com',
    password: TEST_USER_PASSWORD,
    adminUsername: 'admin@example.com',
    adminPassword: TEST_ADMIN_PASSWORD,
    seed: 20261121,
  });
}, 180_000);
afterAll(async () => {
  await gateway?.close();
  await server?.close();
});

describe('a full run through a gateway prefix', () => {
  it('finds no violation, Location and Link judged relative to the base URL', () => {
    const failures = report.results
      .filter((r) => r.status === 'failed')
      .map((r) => `${r.check} ${r.operationId}: ${r.message}`);
    expect(failures).toEqual([]);
    const judged = report.results.filter(
      (r) =>
        r.check === 'response_headers_conformance' &&
        ['createUser', 'createUserOrder', 'listUsers'].includes(r.operationId),
    );
    expect(judged.map((r) => r.status)).toEqual(['passed', 'passed', 'passed']);
  });

  it('saw the prefixed Location and Link the gateway sent', async () => {
    const res = await fetch(`${gateway.url}/svc/api/v1/users?page=0&size=2`, {
      headers: { Authorization: `Bearer ${server.adminToken}` },
    });
    expect(res.headers.get('link')).toMatch(/^<\/svc\/api\/v1\/users\?/);
  });
});
