import { describe, expect, it } from 'vitest';
import type { CheckResult, ConformanceReport } from '../report.js';
import { applyBaseline } from './apply-baseline.js';
import type { Baseline } from './baseline.js';
import { updateBaseline } from './update-baseline.js';

const result = (
  check: string,
  operationId: string,
  status: CheckResult['status'],
  expected?: string,
): CheckResult => ({
  check,
  operationId,
  method: 'GET',
  path: '/p',
  status,
  message: `${check} on ${operationId} ${status}`,
  ...(expected ? { expected } : {}),
});

const report = (results: CheckResult[], incomplete?: string): ConformanceReport => ({
  summary: {
    target: 'http://127.0.0.1:1/api/v1',
    specTitle: 'T',
    specVersion: '1',
    seed: 1,
    startedAt: '2026-11-28T00:00:00.000Z',
    durationMs: 1,
    requests: 1,
    checks: [...new Set(results.map((r) => r.check))],
    results: {
      total: results.length,
      passed: results.filter((r) => r.status === 'passed').length,
      failed: results.filter((r) => r.status === 'failed').length,
      skipped: results.filter((r) => r.status === 'skipped').length,
    },
    failuresByCheck: {},
    ...(incomplete ? { incomplete } : {}),
  },
  results,
  coverage: [],
});

const baseline: Baseline = {
  entries: [
    { check: 'use_after_free', operationId: 'getUser', rule: '404' },
    { check: 'delete_twice', operationId: 'deleteUser', rule: '404' },
    { check: 'etag_conditional', operationId: 'getUser', rule: '304' },
    { check: 'role_holders', operationId: 'updateUserRoles', rule: '409' },
  ],
};

/** The run: one known failure, one new, one fixed, one not judged (skipped), one not run. */
const run = report([
  result('use_after_free', 'getUser', 'failed', '404'),
  result('use_after_free', 'getUser', 'failed', '404'),
  result('status_code_conformance', 'getUser', 'failed', '200 or 404'),
  result('delete_twice', 'deleteUser', 'passed'),
  result('etag_conditional', 'getUser', 'skipped'),
]);

describe('applyBaseline', () => {
  const judged = applyBaseline(run, baseline);

  it('sorts the failures into new and known, and the entries left into fixed and not run', () => {
    expect(judged.summary.baseline).toEqual({
      new: 1,
      known: 1,
      fixed: 1,
      notRun: 2,
      entries: {
        new: [{ check: 'status_code_conformance', operationId: 'getUser', rule: '200 or 404' }],
        known: [{ check: 'use_after_free', operationId: 'getUser', rule: '404' }],
        fixed: [{ check: 'delete_twice', operationId: 'deleteUser', rule: '404' }],
        notRun: [
          { check: 'etag_conditional', operationId: 'getUser', rule: '304' },
          { check: 'role_holders', operationId: 'updateUserRoles', rule: '409' },
        ],
      },
    });
  });

  it('marks each known failure, and only those', () => {
    expect(judged.results.map((r) => r.baselined ?? false)).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('leaves the report it was given as it was', () => {
    expect(run.summary.baseline).toBeUndefined();
    expect(run.results.some((r) => r.baselined)).toBe(false);
  });

  it.each([
    [
      'a failure of another rule of the same check and operation',
      'use_after_free',
      'getUser',
      '410',
      'new',
    ],
    ['the same rule on another operation', 'use_after_free', 'getOrder', '404', 'new'],
    ['the same rule of another check', 'delete_twice', 'getUser', '404', 'new'],
    ['the same failure with other generated values', 'use_after_free', 'getUser', '404', 'known'],
  ] as const)('counts %s as %s', (_what, check, operationId, expected, verdict) => {
    const summary = applyBaseline(
      report([result(check, operationId, 'failed', expected)]),
      baseline,
    ).summary.baseline!;
    expect(summary[verdict]).toBe(1);
  });

  it('calls nothing fixed after a run that did not finish', () => {
    const partial = report(
      [result('delete_twice', 'deleteUser', 'passed')],
      'interrupted (SIGINT)',
    );
    const summary = applyBaseline(partial, baseline).summary.baseline!;
    expect(summary.fixed).toBe(0);
    expect(summary.notRun).toBe(4);
  });

  it('judges a run without failures against an empty baseline as clean', () => {
    expect(
      applyBaseline(report([result('a', 'b', 'passed')]), { entries: [] }).summary.baseline,
    ).toMatchObject({ new: 0, known: 0, fixed: 0, notRun: 0 });
  });
});

describe('updateBaseline', () => {
  it("takes the run's failures and keeps the entries it did not judge", () => {
    expect(updateBaseline(run, baseline).entries).toEqual([
      { check: 'etag_conditional', operationId: 'getUser', rule: '304' },
      { check: 'role_holders', operationId: 'updateUserRoles', rule: '409' },
      { check: 'status_code_conformance', operationId: 'getUser', rule: '200 or 404' },
      { check: 'use_after_free', operationId: 'getUser', rule: '404' },
    ]);
  });

  it('starts from nothing without a previous baseline', () => {
    expect(updateBaseline(run).entries).toHaveLength(2);
  });

  it('after a run that did not finish, only adds', () => {
    const partial = report(
      [result('delete_twice', 'deleteUser', 'passed'), result('x', 'y', 'failed', '500')],
      'interrupted (SIGINT)',
    );
    expect(updateBaseline(partial, baseline).entries).toHaveLength(5);
  });

  it('is judged clean by the baseline it wrote', () => {
    const summary = applyBaseline(run, updateBaseline(run, baseline)).summary.baseline!;
    expect(summary).toMatchObject({ new: 0, known: 2, fixed: 0 });
  });
});
