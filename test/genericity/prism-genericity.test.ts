import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrism, type PrismServer } from '../../node-runtime/start-prism.js';
import { listOperations } from '../../spec/operations.js';
import { loadSpec } from '../../spec/load-spec.js';
import { runCli } from '../run-cli.js';
import { statefulChecks } from '../../conformance/checks/stateful/stateful-checks.js';
import type { ConformanceReport } from '../../conformance/report.js';
import { ConformanceSetupError, runConformance } from '../../conformance/run-conformance.js';
import {
  startPathPrefixProxy,
  type PathPrefixProxy,
} from '../support/genericity/path-prefix-proxy.js';

/**
 * The runner is generic: held to a pet store that is not our contract, served by a Prism mock,
 * it runs to the end without crashing, explains every skip, documents every failure, and the
 * failures it reports are the ones a stateless mock earns, not artefacts of our own contract.
 */

const petstore = fileURLToPath(new URL('./petstore.yaml', import.meta.url));
const RUN_BOUND_MS = 30_000;

/** Response checks Prism's answers (examples or schema-generated) must pass. */
const MUST_PASS = [
  'not_a_server_error',
  'content_type_conformance',
  'response_headers_conformance',
  'problem_json',
  'cache_control_present',
];

/** Checks that may fail against Prism, and why (its statelessness or its HTTP gaps). */
const MAY_FAIL: Record<string, string> = {
  ...Object.fromEntries(
    statefulChecks.map((c) => [c.name, 'stateful: Prism keeps nothing between requests']),
  ),
  absent_resource: 'stateless: Prism answers any id with the example',
  writes_read_back:
    'stateless: Prism stores no write, so a read right after one answers the example',
  judged_on_state_before:
    'stateless: Prism stores no write, so the state and value a PATCH sets are not read back',
  resource_identity:
    "stateless: Prism answers its example whatever the path's id, the body sent or the Location made",
  ignored_auth:
    'stateless: Prism takes any bearer token, and its 401 carries no WWW-Authenticate challenge',
  head_matches_get: 'Prism gap: HEAD is answered 405',
  status_code_conformance:
    'Prism gap: HEAD is answered 405, which the GET it stands for does not document (every answer is judged, 0129)',
  unsupported_method: 'Prism gap: its 405 carries no Allow header',
  allow_header_conformance: 'Prism gap: OPTIONS (not a CORS preflight) is answered 405',
  negative_data_rejection:
    "runner rules beyond OpenAPI that Prism's validator does not share: plain-decimal integers, unknown query parameters, lone surrogates",
  response_schema_conformance:
    'Prism gap: malformed JSON gets its HTTP layer\'s {"error":{"code":"invalid_json"}}, not the documented Error',
};

/** What each of these failures looks like, so an unrelated failure of the same check shows. */
const FAILURE_SHAPE: Record<string, (r: ConformanceReport['results'][number]) => boolean> = {
  resource_identity: (r) =>
    /names another resource|does not name the resource it made|does not hold the value/.test(
      r.message,
    ),
  status_code_conformance: (r) => r.request?.method === 'HEAD' && r.response?.status === 405,
  negative_data_rejection: (r) =>
    /plain decimal integer|unknown query parameter|lone surrogate/.test(r.message),
  response_schema_conformance: (r) => (r.response?.body ?? '').includes('"invalid_json"'),
};

function bounded<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`${what} hung (> ${RUN_BOUND_MS} ms)`)),
      RUN_BOUND_MS,
    );
  });
  return Promise.race([work, limit]).finally(() => clearTimeout(timer));
}

async function expectSensibleReport(report: ConformanceReport, label: string): Promise<void> {
  const { summary, results, coverage } = report;
  console.log(
    `[${label}] results ${JSON.stringify(summary.results)} requests ${summary.requests} in ${summary.durationMs} ms\n` +
      `[${label}] failuresByCheck ${JSON.stringify(summary.failuresByCheck)}`,
  );
  expect(summary.specTitle).toMatch(/Pet Store/);
  expect(summary.results.total).toBe(results.length);
  expect(summary.results.passed + summary.results.failed + summary.results.skipped).toBe(
    results.length,
  );

  // Every operation of the description is covered: in the coverage matrix and in the results.
  const operationIds = listOperations(await loadSpec(petstore)).map((op) => op.operationId);
  expect(operationIds).toHaveLength(6);
  expect(coverage.map((row) => row.operationId).sort()).toEqual([...operationIds].sort());
  const judged = new Set(results.map((r) => r.operationId));
  for (const id of operationIds) expect(judged, `${id} in the results`).toContain(id);

  for (const r of results) {
    expect(r.check, 'a result names its check').toMatch(/^[a-z_]+$/);
    expect(r.message.trim(), `${r.check} ${r.operationId}: a message`).not.toBe('');
    expect(r.message, `${r.check}: no crash`).not.toMatch(/the check itself crashed/);
    if (r.status !== 'failed') continue;
    expect(r.operationId, `${r.check}: the failure names its operation`).not.toBe('*');
    expect(operationIds).toContain(r.operationId);
    expect(r.request?.method, `${r.check} ${r.operationId}: the request`).toBeTruthy();
    expect(r.request?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
    expect(r.curl, `${r.check} ${r.operationId}: a curl line`).toMatch(/^curl /);
  }

  // Failures are confined to checks that a stateless mock (or a Prism gap) legitimately fails.
  const failedChecks = Object.keys(summary.failuresByCheck);
  for (const check of MUST_PASS)
    expect(failedChecks, `${check} must not fail`).not.toContain(check);
  for (const check of failedChecks)
    expect(Object.keys(MAY_FAIL), `${check} failed against Prism`).toContain(check);
  for (const r of results.filter((x) => x.status === 'failed' && FAILURE_SHAPE[x.check]))
    expect(FAILURE_SHAPE[r.check]!(r), `${r.check} ${r.operationId}: ${r.message}`).toBe(true);
}

for (const dynamic of [false, true]) {
  const mode = dynamic ? 'dynamic' : 'static';

  describe(`conformance against a ${mode} Prism mock of a foreign pet store`, () => {
    let prism: PrismServer;
    let proxy: PathPrefixProxy;
    let baseUrl: string;

    beforeAll(async () => {
      const started = performance.now();
      prism = await startPrism({ specPath: petstore, dynamic, ...(dynamic ? { seed: 1 } : {}) });
      console.log(`[${mode}] prism started in ${Math.round(performance.now() - started)} ms`);
      // The runner cannot take a base URL without a path (see the bare-origin test below), and
      // Prism serves only at its bare origin: a transparent forwarder adds a path prefix.
      proxy = await startPathPrefixProxy(prism.url);
      baseUrl = proxy.baseUrl;
    });

    afterAll(async () => {
      await proxy?.close();
      const stopping = performance.now();
      await prism?.close();
      console.log(`[${mode}] prism stopped in ${Math.round(performance.now() - stopping)} ms`);
    });

    it('runs without credentials and reports sensibly', { timeout: 60_000 }, async () => {
      const report = await bounded(
        runConformance({ baseUrl, specPath: petstore, seed: 1 }),
        `${mode} run`,
      );
      await expectSensibleReport(report, `${mode}, no credentials`);
      // Without credentials the secured operations are skipped with a reason, not failed.
      const secured = report.results.filter(
        (r) => r.status === 'skipped' && /secured and no credentials/.test(r.message),
      );
      expect(secured.length).toBeGreaterThan(0);
    });

    it('runs with any bearer token and reports sensibly', { timeout: 60_000 }, async () => {
      const report = await bounded(
        runConformance({ baseUrl, specPath: petstore, seed: 1, token: 'anything' }),
        `${mode} run with a token`,
      );
      await expectSensibleReport(report, `${mode}, token`);
      // With a token the links of createPet are followed: the resource checks really ran.
      const availability = report.results.filter((r) => r.check === 'ensure_resource_availability');
      expect(availability.some((r) => r.status === 'passed')).toBe(true);
      expect(report.coverage.find((c) => c.operationId === 'createPet')?.exercised).toContain(
        '201',
      );
    });

    if (!dynamic) {
      it('the built CLI exits 0 or 1 with a JSON report', { timeout: 60_000 }, async () => {
        const args = ['conform', baseUrl, '--spec', petstore, '--seed', '1', '--reporter', 'json'];
        const result = await runCli(args, { timeoutMs: 50_000 });
        expect([0, 1], result.stderr).toContain(result.code);
        const report = JSON.parse(result.stdout) as ConformanceReport;
        expect(report.summary.specTitle).toMatch(/Pet Store/);
        console.log(
          `[cli] exit ${result.code}; results ${JSON.stringify(report.summary.results)}; failuresByCheck ${JSON.stringify(report.summary.failuresByCheck)}`,
        );
      });

      /*
       * KNOWN RUNNER BUG (reported, not fixed here): a base URL without a path, such as
       * Prism's `http://127.0.0.1:PORT`, makes the runner's reachability probe send an empty
       * request path, which undici refuses (UND_ERR_INVALID_ARG): the run ends in a setup error
       * "the target is unreachable" before any request is sent, and `apikit conform` exits 2.
       * Once fixed, the report must be as sensible as through the prefix proxy.
       */
      it('a bare-origin base URL: runs, or fails only with the known empty-path bug', async () => {
        const outcome = await runConformance({ baseUrl: prism.url, specPath: petstore, seed: 1 })
          .then((report) => ({ report }))
          .catch((error: unknown) => ({ error }));
        if ('report' in outcome) {
          await expectSensibleReport(outcome.report, `${mode}, bare origin`);
          return;
        }
        console.log(`[bare origin] KNOWN RUNNER BUG: ${(outcome.error as Error).message}`);
        expect(outcome.error).toBeInstanceOf(ConformanceSetupError);
        expect((outcome.error as Error).message).toMatch(
          /unreachable: GET \S+ failed: UND_ERR_INVALID_ARG/,
        );
      });
    }
  });
}
