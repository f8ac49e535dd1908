import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../spec/load-spec.js';
import { listOperations, type SpecOperation } from '../spec/operations.js';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../test/start-test-server.js';
import {
  startPartialServer,
  type PartialServer,
} from '../test/support/conformance/partial-server.js';
import { NOT_IMPLEMENTED } from './checks/probe/operation-implemented.js';
import type { ConformanceReport } from './report.js';
import { runConformance } from './run-conformance.js';
import { RunScope } from './run-scope.js';
import { selectOperations } from './select-operations.js';

/**
 * A backend adopting the contract one operation at a time (issue 29): its own Express server
 * routes six operations and leaves the rest to Express's 404 page. An unscoped run reports
 * each missing operation once and piles nothing else on it; a run scoped to the six reports
 * nothing outside them and sends nothing there.
 */
const BUILT = ['login', 'listUsers', 'createUser', 'getUser', 'updateUser', 'deleteUser'];

let server: TestServer;
let partial: PartialServer;
let operations: SpecOperation[];
let unscoped: ConformanceReport;
let scoped: ConformanceReport;
let scopedRequests: string[];

const run = (include?: string[]) =>
  runConformance({
    baseUrl: partial.api,
    username: 'user@example.com',
    password: TEST_USER_PASSWORD,
    adminUsername: 'admin@example.com',
    adminPassword: TEST_ADMIN_PASSWORD,
    seed: 29,
    maxExamples: 2,
    ...(include ? { include } : {}),
  });

beforeAll(async () => {
  server = await startTestServer();
  partial = await startPartialServer(server.url, BUILT);
  operations = listOperations(await loadSpec());
  unscoped = await run();
  partial.requests.length = 0;
  scoped = await run(BUILT);
  scopedRequests = [...partial.requests];
}, 240_000);
afterAll(async () => {
  await partial?.close();
  await server?.close();
});

const failures = (report: ConformanceReport) => report.results.filter((r) => r.status === 'failed');

describe('an unscoped run against a backend that built six operations', () => {
  const missing = () =>
    operations
      .filter((op) => op.method !== 'options' && !BUILT.includes(op.operationId))
      .filter((op) => !op.operation['x-apikit-destructive' as keyof typeof op.operation])
      .map((op) => op.operationId);

  it('says how many it implements, and names the others', () => {
    expect(unscoped.summary.implemented).toEqual({
      operations: BUILT.length,
      of: BUILT.length + missing().length,
      missing: missing(),
    });
  });

  it('reports each missing operation once, as operation_implemented', () => {
    const reported = failures(unscoped)
      .filter((r) => r.check === 'operation_implemented')
      .map((r) => r.operationId);
    expect(reported.sort()).toEqual(missing().sort());
    for (const r of failures(unscoped).filter((x) => x.check === 'operation_implemented'))
      expect(r.message).toMatch(/^not implemented: .*like a route the target does not have/);
  });

  it('piles no other failure on a missing operation, or on the OPTIONS of its path', () => {
    const judged = new Set([...BUILT, 'optionsUsers', 'optionsUser', 'optionsAuthLogin', '*']);
    const others = failures(unscoped).filter((r) => r.check !== 'operation_implemented');
    expect(others.filter((r) => !judged.has(r.operationId))).toEqual([]);
    const onMissing = unscoped.results.filter(
      (r) => missing().includes(r.operationId) && r.check !== 'operation_implemented',
    );
    expect(onMissing.every((r) => r.status === 'skipped' && r.message === NOT_IMPLEMENTED)).toBe(
      true,
    );
  });

  it('puts every operation on the scorecard, the missing ones as not implemented', () => {
    const card = unscoped.scorecard ?? [];
    expect(card.filter((s) => s.implemented === false).map((s) => s.operationId)).toEqual(
      expect.arrayContaining(missing()),
    );
    const listUsers = card.find((s) => s.operationId === 'listUsers');
    expect(listUsers).toMatchObject({ implemented: true });
    expect(listUsers!.passed).toBeGreaterThan(5);
    // The flood of the issue (191 failures) is gone: one per missing operation, and the few
    // service routes the partial backend lacks.
    expect(failures(unscoped).length).toBeLessThan(missing().length + 6);
  });
});

describe('a run scoped to the six operations', () => {
  const inScope = () => new Set(selectOperations(operations, BUILT).map((op) => op.operationId));

  it('reports nothing outside its scope', () => {
    const outside = scoped.results.filter(
      (r) => r.operationId !== '*' && !inScope().has(r.operationId),
    );
    expect(outside).toEqual([]);
    expect(scoped.summary.implemented).toEqual({ operations: 6, of: 6, missing: [] });
  });

  it('sends no request to an operation outside its scope', () => {
    const scope = new RunScope(operations, selectOperations(operations, BUILT));
    const addressed = scopedRequests
      .map((line) => {
        const [method = '', path = ''] = line.split(' ');
        return scope.operationOf({ method, path })?.operationId;
      })
      .filter((id): id is string => id !== undefined);
    expect(addressed.length).toBeGreaterThan(50);
    expect([...new Set(addressed.filter((id) => !inScope().has(id)))]).toEqual([]);
  });

  it('skips what needs an operation out of scope, naming it', () => {
    const needs = scoped.results.filter(
      (r) => r.status === 'skipped' && /which is out of scope/.test(r.message),
    );
    expect(needs.length).toBeGreaterThan(0);
    for (const r of needs) expect(r.message).toMatch(/\b[a-z][A-Za-z]+\b.*which is out of scope/);
  });

  it('fails only where the six break the contract', () => {
    // The partial backend forwards to the reference server, which is right; what it lacks is
    // the service's own routes (the served documents, the version alias).
    expect([...new Set(failures(scoped).map((r) => r.check))].sort()).toEqual(
      [...new Set(failures(unscoped).map((r) => r.check))]
        .filter((c) => c !== 'operation_implemented')
        .sort(),
    );
  });
});
