import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConformanceReport } from '../../conformance/report.js';
import { startCluster, type ThrowawayCluster } from '../../scripts/postgres/throwaway-cluster.mjs';
import { runCli } from '../run-cli.js';
import {
  startPostgresInstances,
  type PostgresInstances,
} from '../support/postgres/postgres-instances.js';

// Issue 22: a full `apikit conform` run, destructive checks included, passes against the
// reference server on PostgreSQL: one instance, then three `apikit serve` processes on one
// database behind a round-robin balancer (each request of the run lands on the next
// instance). The CLI as users run it (bin/apikit.js), against the demo accounts with their
// documented passwords.

const RUN_TIMEOUT_MS = 360_000;
const out = mkdtempSync(join(tmpdir(), 'apikit-conform-pg-'));
let cluster: ThrowawayCluster;

beforeAll(async () => {
  cluster = await startCluster();
}, 120_000);
afterAll(async () => {
  await cluster?.destroy();
  rmSync(out, { recursive: true, force: true });
});

/** Runs `apikit conform` against `api`; the failed results, and how long the run took. */
async function conform(api: string, name: string) {
  const started = Date.now();
  const result = await runCli(
    [
      'conform',
      api,
      '--username',
      'user@example.com',
      '--password',
      'user-demo-password',
      '--admin-username',
      'admin@example.com',
      '--admin-password',
      'admin-demo-password',
      '--allow-destructive',
      '--reporter',
      'json',
      '--output',
      join(out, `${name}.json`),
    ],
    { timeoutMs: RUN_TIMEOUT_MS - 10_000 },
  );
  const seconds = (Date.now() - started) / 1000;
  const report = JSON.parse(readFileSync(join(out, `${name}.json`), 'utf8')) as ConformanceReport;
  const failed = report.results
    .filter((r) => r.status === 'failed')
    .map((r) => `${r.check} ${r.operationId}: ${r.message}`);
  console.info(
    `conform on PostgreSQL, ${name}: ${report.summary.results.passed} passed, ${failed.length} failed in ${seconds.toFixed(1)} s`,
  );
  return { result, report, failed };
}

describe.each([
  ['one instance', 1],
  ['three apikit serve processes behind a round-robin balancer', 3],
])('apikit conform --allow-destructive on PostgreSQL: %s', (name, count) => {
  let multi: PostgresInstances;
  beforeAll(async () => {
    // Three as child processes: separate event loops, as deployed (needs `npm run build`).
    multi = await startPostgresInstances({ cluster, count, processes: count > 1 });
  }, 90_000);
  afterAll(() => multi?.close());

  it(
    'finds no violation',
    async () => {
      const { result, report, failed } = await conform(
        count === 1 ? multi.apis[0]! : multi.api,
        `${count}-instances`,
      );
      expect(failed).toEqual([]);
      expect(report.summary.incomplete).toBeUndefined();
      expect(result.code, result.stderr).toBe(0);
      expect(report.summary.results.passed).toBeGreaterThan(400);
      if (count > 1) {
        // Every instance answered its share of the run.
        const sent = multi.balancer.sent;
        expect(Math.min(...sent)).toBeGreaterThan(0);
        expect(Math.max(...sent) - Math.min(...sent)).toBeLessThanOrEqual(1);
        console.info(`requests per instance: ${sent.join(', ')}`);
      }
    },
    RUN_TIMEOUT_MS,
  );
});
