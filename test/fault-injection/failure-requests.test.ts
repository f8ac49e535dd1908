import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CheckResult } from '../../conformance/report.js';
import { runConformance } from '../../conformance/run-conformance.js';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../start-test-server.js';
import { startFaultProxy, type FaultProxy } from '../support/fault-injection/fault-proxy.js';
import {
  patchAppliesValidPart,
  patchNullAgeIgnored,
  userStatusWritable,
} from '../support/fault-injection/user-write-faults.js';
import type { Fault } from '../support/fault-injection/faults.js';

/**
 * A failure names the request that broke the rule, and its curl line runs (decision 0098): on
 * targets with a planted write bug, the failure of the check that reads the write back carries
 * the write (PATCH, PUT), not the GET that showed it; the GET is its evidence in `actual`; and
 * the curl line names the run's tokens by `$APIKIT_TOKEN` / `$APIKIT_ADMIN_TOKEN`.
 */
describe('failures point at the request that broke the rule', () => {
  let server: TestServer;
  let proxy: FaultProxy;
  beforeAll(async () => {
    server = await startTestServer();
    proxy = await startFaultProxy(server.url, {
      username: 'admin@example.com',
      password: TEST_ADMIN_PASSWORD,
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
  });
  beforeEach(() => proxy?.use(undefined));

  async function failuresOf(fault: Fault) {
    proxy.use(fault.create());
    try {
      const report = await runConformance({
        baseUrl: `${proxy.url}/api/v1`,
        username: 'user@example.com',
        password: TEST_USER_PASSWORD,
        adminUsername: 'admin@example.com',
        adminPassword: TEST_ADMIN_PASSWORD,
        checks: [fault.expectedCheck],
        ...(fault.include ? { include: fault.include } : {}),
        seed: 4711,
      });
      const failed = report.results.filter(
        (r) => r.status === 'failed' && r.check === fault.expectedCheck,
      );
      expect(failed.length, fault.name).toBeGreaterThan(0);
      return { report, failed };
    } finally {
      proxy.use(undefined);
    }
  }

  /**
   * Runs a curl line in a shell with both variables exported; the status line it printed.
   * Asynchronously: the target answering it runs in this process.
   */
  async function runCurl(result: CheckResult): Promise<string> {
    const { stdout } = await promisify(execFile)('sh', ['-c', result.curl!], {
      env: {
        PATH: process.env.PATH,
        APIKIT_TOKEN: server.userToken,
        APIKIT_ADMIN_TOKEN: server.adminToken,
      },
      timeout: 10_000,
    });
    return stdout.split('\r\n')[0]!;
  }

  it.each([
    [patchNullAgeIgnored.name, patchNullAgeIgnored],
    [patchAppliesValidPart.name, patchAppliesValidPart],
  ])('patch_semantics on %s: the PATCH, with the read-back as evidence', async (_name, fault) => {
    const { report, failed } = await failuresOf(fault);
    for (const failure of failed) {
      expect(failure.request?.method, failure.message).toBe('PATCH');
      expect(failure.curl).toMatch(
        /^curl -i -X PATCH 'http:\/\/127\.0\.0\.1:\d+\/api\/v1\/users\/\d+'/,
      );
      expect(failure.actual).toMatch(/^PATCH \S+ -> \d{3}; read back: GET \S+ -> 200 \{/);
      expect(failure.curl).toMatch(/ -H "Authorization: Bearer \$APIKIT(_ADMIN)?_TOKEN" /);
      expect(failure.curl).not.toContain('<');
      // The line runs once the variable is exported: the target takes the token (the user it
      // patched was deleted by the run's cleanup, so 404 is the answer, not 401).
      expect(await runCurl(failure)).toMatch(/^HTTP\/1\.1 (?!401)\d{3}/);
    }
    const used = report.summary.curlVariables?.map((v) => v.name) ?? [];
    expect(used.length).toBeGreaterThan(0);
    for (const failure of failed)
      expect(used.some((name) => failure.curl!.includes(`$${name}`))).toBe(true);
  });

  it('read_only_ignored on user-status-writable: the write, with the read-back as evidence', async () => {
    const { failed } = await failuresOf(userStatusWritable);
    for (const failure of failed) {
      expect(['PUT', 'PATCH'], failure.message).toContain(failure.request?.method);
      expect(failure.actual).toMatch(/^(PUT|PATCH) \S+ -> 2\d\d; read back: GET /);
      expect(failure.curl).toMatch(/^curl -i -X (PUT|PATCH) /);
    }
  });

  it('the JSON summary says what each variable holds', async () => {
    const { report } = await failuresOf(patchNullAgeIgnored);
    for (const variable of report.summary.curlVariables ?? [])
      expect(variable).toEqual(
        variable.name === 'APIKIT_TOKEN'
          ? { name: 'APIKIT_TOKEN', holds: 'an access token of user@example.com' }
          : { name: 'APIKIT_ADMIN_TOKEN', holds: 'an access token of admin@example.com' },
      );
  });
});
