import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../start-test-server.js';
import { runCli } from '../run-cli.js';
import { createDefaultRegistry } from '../../conformance/checks/builtin-checks.js';
import { FUZZ_CHECK_NAMES } from '../../conformance/fuzz/fuzz-checks.js';
import type { ConformanceReport } from '../../conformance/report.js';
import { runConformance } from '../../conformance/run-conformance.js';
import { startFaultProxy, type FaultProxy } from '../support/fault-injection/fault-proxy.js';
import { faults, type Fault } from '../support/fault-injection/faults.js';

/**
 * The runner must catch real contract violations: each fault turns the reference server into
 * a variant that breaks one rule, and the run against it must fail in the check that is the
 * natural detector of that rule. The same runs against the unbroken server (through the same
 * proxy) must pass, so that no variant is "caught" by noise.
 */

const SEED = 4711;
const CREDENTIALS = {
  username: 'user@example.com',
  password: TEST_USER_PASSWORD,
  adminUsername: 'admin@example.com',
  adminPassword: TEST_ADMIN_PASSWORD,
};
const registered = [...createDefaultRegistry().names, ...FUZZ_CHECK_NAMES];

export function faultTableSuite(shard: number, shards: number): void {
  // A fault in every `shards`-th place: the shards run in parallel files, each with its own
  // server and proxy, and together hold the whole table.
  const mine = faults.filter((_, i) => i % shards === shard - 1);
  describe(`the conformance runner against deliberately broken targets (${shard} of ${shards})`, () => {
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
    // Some variants leave data behind (a DELETE that deletes nothing): each run starts afresh.
    beforeEach(async () => {
      proxy?.use(undefined);
      const res = await fetch(`${server.api}/admin/reset`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${server.adminToken}` },
      });
      expect(res.status).toBe(204);
    });

    const run = (
      include: string[] | undefined,
      allowDestructive = false,
      fuzz = 0,
      provokeRateLimits = false,
    ): Promise<ConformanceReport> =>
      runConformance({
        baseUrl: `${proxy.url}/api/v1`,
        ...CREDENTIALS,
        ...(include ? { include } : {}),
        ...(allowDestructive ? { allowDestructive } : {}),
        ...(fuzz ? { fuzz: { perOperation: fuzz } } : {}),
        ...(provokeRateLimits ? { provokeRateLimits } : {}),
        seed: SEED,
      });

    it('has at least 25 faults, uniquely named, each expecting a registered check', () => {
      expect(mine.length).toBeGreaterThan(0);
      expect(faults.length).toBeGreaterThanOrEqual(25);
      expect(new Set(faults.map((f) => f.name)).size).toBe(faults.length);
      for (const fault of faults) expect(registered).toContain(fault.expectedCheck);
    });

    // The control group: every narrowing the faults use, without a fault, passes.
    const narrowings = [
      ...new Map(
        mine.map((f) => [
          JSON.stringify([
            f.include ?? null,
            f.allowDestructive ?? false,
            f.fuzz ?? 0,
            f.provokeRateLimits ?? false,
          ]),
          [
            f.include,
            f.allowDestructive ?? false,
            f.fuzz ?? 0,
            f.provokeRateLimits ?? false,
          ] as const,
        ]),
      ).values(),
    ];
    it.each(
      narrowings.map(
        ([include, destructive, fuzz, provoke]) =>
          [
            `${include?.join(',') ?? 'everything'}${destructive ? ', destructive' : ''}${fuzz ? `, fuzz ${fuzz}` : ''}${provoke ? ', provoking rate limits' : ''}`,
            include,
            destructive,
            fuzz,
            provoke,
          ] as const,
      ),
    )(
      'the unbroken server passes (include %s)',
      async (_label, include, destructive, fuzz, provoke) => {
        const report = await run(include, destructive, fuzz, provoke);
        const failed = report.results.filter((r) => r.status === 'failed');
        expect(failed.map((r) => `${r.check} ${r.operationId}: ${r.message}`)).toEqual([]);
        expect(report.summary.results.passed).toBeGreaterThan(0);
      },
    );

    const failingChecks = async (fault: Fault) => {
      proxy.use(fault.create());
      try {
        const report = await run(
          fault.include,
          fault.allowDestructive,
          fault.fuzz,
          fault.provokeRateLimits,
        );
        if (process.env.FAULT_TABLE)
          console.log(
            `FAULT ${fault.name} -> ${fault.expectedCheck} | fired: ${Object.keys(report.summary.failuresByCheck).sort().join(' ')}`,
          );
        return report;
      } finally {
        proxy.use(undefined);
      }
    };

    it.each(mine.map((f) => [f.name, f.expectedCheck, f] as const))(
      '%s is caught by %s',
      async (_name, expectedCheck, fault) => {
        const report = await failingChecks(fault);
        const failed = report.results.filter((r) => r.status === 'failed');
        expect(failed.length, `nothing failed on ${fault.name}`).toBeGreaterThan(0);
        expect(Object.keys(report.summary.failuresByCheck), fault.description).toContain(
          expectedCheck,
        );
        expect(report.summary.failuresByCheck[expectedCheck]).toBeGreaterThan(0);
        for (const failure of failed.filter((r) => r.check === expectedCheck)) {
          expect(failure.request, failure.message).toBeDefined();
          expect(failure.curl, failure.message).toMatch(/^curl /);
        }
      },
      // The check-order faults run a whole narrowing twice over; a loaded machine takes 15 s.
      60_000,
    );

    // Once, in the first shard.
    if (shard === 1)
      describe('through the built CLI', () => {
        const args = (include: string[]) => [
          'conform',
          `${proxy.url}/api/v1`,
          '--username',
          CREDENTIALS.username,
          '--password',
          CREDENTIALS.password,
          '--admin-username',
          CREDENTIALS.adminUsername,
          '--admin-password',
          CREDENTIALS.adminPassword,
          '--include',
          include.join(','),
          '--seed',
          String(SEED),
        ];

        it('exits 1 and names the check on a broken target', async () => {
          const fault = faults.find((f) => f.name === 'status-filter-ignored')!;
          proxy.use(fault.create());
          const result = await runCli(args(fault.include!), { timeoutMs: 30_000 });
          proxy.use(undefined);
          expect(result.code, result.stderr).toBe(1);
          expect(result.stdout).toContain(fault.expectedCheck);
        });

        it('exits 0 on the unbroken server', async () => {
          const result = await runCli(args(['listUsers']), { timeoutMs: 30_000 });
          expect(result.code, result.stdout + result.stderr).toBe(0);
        });
      });
  });
}
