import type { SpecOperation } from '../spec/operations.js';
import { OPERATION_IMPLEMENTED } from './checks/probe/operation-implemented.js';
import type { CheckResult, ImplementedSummary, OperationScore } from './report.js';
import type { RunScope } from './run-scope.js';

/** The rule ids a failure of `check` on an operation points at (none when unknown). */
export type RulesOf = (check: string, method: string, path: string) => string[];

/**
 * The scorecard: one row per operation in scope, in spec order, counting its results and
 * naming the checks that failed on it, each with the rules `rulesOf` says it points at.
 *
 * @example
 * operationScorecard(report.results, scope.all.filter((op) => scope.includes(op)));
 */
export function operationScorecard(
  results: CheckResult[],
  operations: SpecOperation[],
  options: { missing?: (op: SpecOperation) => boolean; probed?: boolean; rulesOf?: RulesOf } = {},
): OperationScore[] {
  const byOperation = new Map<string, CheckResult[]>();
  for (const result of results) {
    const list = byOperation.get(result.operationId) ?? [];
    list.push(result);
    byOperation.set(result.operationId, list);
  }
  return operations.map((op) => {
    const own = byOperation.get(op.operationId) ?? [];
    const count = (status: CheckResult['status']) => own.filter((r) => r.status === status).length;
    const failures = new Map<string, number>();
    for (const r of own.filter((x) => x.status === 'failed'))
      failures.set(r.check, (failures.get(r.check) ?? 0) + 1);
    const method = op.method.toUpperCase();
    return {
      operationId: op.operationId,
      method,
      path: op.path,
      ...(options.probed ? { implemented: !options.missing?.(op) } : {}),
      passed: count('passed'),
      failed: count('failed'),
      skipped: count('skipped'),
      breaks: [...failures].map(([check, n]) => ({
        check,
        failures: n,
        rules:
          check === OPERATION_IMPLEMENTED ? [] : (options.rulesOf?.(check, method, op.path) ?? []),
      })),
    };
  });
}

/**
 * What operation_implemented found, when it ran: the probed operations (those in scope but
 * OPTIONS, which follow their path) and the ones the target lacks.
 */
export function implementedSummary(scope: RunScope): ImplementedSummary {
  const probed = scope.all.filter((op) => scope.includes(op) && op.method !== 'options');
  const missing = probed.filter((op) => scope.missingReason(op) !== undefined);
  return {
    operations: probed.length - missing.length,
    of: probed.length,
    missing: missing.map((op) => op.operationId),
  };
}
