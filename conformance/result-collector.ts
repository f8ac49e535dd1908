import type { SpecOperation } from '../spec/operations.js';
import type { CheckFailure, CheckRecorder, ResponseCheck } from './checks/check.js';
import {
  explainUnexercised,
  FULL_RUN_FACTS,
  isExercised,
  type CoverageFacts,
} from './coverage-reasons.js';
import { curlCommand } from './http/curl-command.js';
import type { Exchange } from './http/target-client.js';
import type { CheckResult, CoverageRow } from './report.js';
import type { SecretRedactor } from './secret-redactor.js';

/** Bodies in reports are cut here: enough to see the problem, not a whole page dump. */
const BODY_LIMIT = 2000;
/** Distinct failures kept per check and operation; more say the same thing again. */
const FAILURES_KEPT = 5;

/**
 * Collects what the run saw: results of the active checks, verdicts of the response checks
 * on every exchange (folded to one result per check and operation, plus each distinct
 * failure), and the statuses each operation answered (the coverage matrix).
 */
export class ResultCollector {
  readonly results: CheckResult[] = [];
  private readonly responseVerdicts = new Map<
    string,
    { op: SpecOperation; check: string; seen: number; failures: Map<string, CheckResult> }
  >();
  private readonly statuses = new Map<string, Set<string>>();
  failed = 0;

  constructor(
    private readonly redactor: SecretRedactor,
    private readonly onResult?: (result: CheckResult) => void,
  ) {}

  /** A recorder for one active check. */
  recorder(check: string): CheckRecorder {
    return {
      pass: (op, message, exchange) =>
        this.add(this.result(check, op, 'passed', { message }, exchange)),
      fail: (op, failure, exchange) =>
        this.add(this.result(check, op, 'failed', failure, exchange)),
      skip: (op, reason) =>
        this.add({
          check,
          operationId: op?.operationId ?? '*',
          method: op?.method.toUpperCase() ?? '*',
          path: op?.path ?? '*',
          status: 'skipped',
          message: reason,
        }),
    };
  }

  /** Runs the response checks on one exchange attributed to `op`. */
  observe(
    op: SpecOperation,
    exchange: Exchange,
    checks: ResponseCheck[],
    run: (check: ResponseCheck) => CheckFailure[],
  ): void {
    let seen = this.statuses.get(op.operationId);
    if (!seen) this.statuses.set(op.operationId, (seen = new Set()));
    if (
      exchange.request.method === op.method.toUpperCase() ||
      (op.method === 'get' && exchange.request.method === 'HEAD')
    ) {
      seen.add(String(exchange.response.status));
    }
    for (const check of checks) {
      const key = `${check.name}\u0000${op.operationId}`;
      let verdict = this.responseVerdicts.get(key);
      if (!verdict)
        this.responseVerdicts.set(
          key,
          (verdict = { op, check: check.name, seen: 0, failures: new Map() }),
        );
      verdict.seen++;
      for (const failure of run(check)) {
        if (verdict.failures.has(failure.message) || verdict.failures.size >= FAILURES_KEPT)
          continue;
        const result = this.result(check.name, op, 'failed', failure, exchange);
        verdict.failures.set(failure.message, result);
        this.add(result);
      }
    }
  }

  /** One passed result per response check and operation that never failed. */
  finishResponseChecks(): void {
    for (const verdict of this.responseVerdicts.values()) {
      if (verdict.failures.size > 0) continue;
      this.add(
        this.result(verdict.check, verdict.op, 'passed', {
          message: `${verdict.seen} response(s) conformed`,
        }),
      );
    }
  }

  /**
   * One row per operation: the statuses documented, received (documented or not), and each
   * documented one not received with why, from `facts` (what the run knew).
   */
  coverage(operations: SpecOperation[], facts: CoverageFacts = FULL_RUN_FACTS): CoverageRow[] {
    const sawRateLimit = [...this.statuses.values()].some((seen) => seen.has('429'));
    const known = { ...facts, rateLimited: facts.rateLimited || sawRateLimit };
    return operations.map((op) => {
      const documented = Object.keys(op.responses);
      const seen = [...(this.statuses.get(op.operationId) ?? [])].sort();
      // A status counts as documented exactly, by its range (`4XX`) or through `default`.
      const isDocumented = (s: string) =>
        documented.includes(s) ||
        documented.includes(`${s[0]}XX`) ||
        documented.includes('default');
      const exercised = seen.filter(isDocumented);
      return {
        operationId: op.operationId,
        method: op.method.toUpperCase(),
        path: op.path,
        documented,
        exercised,
        undocumented: seen.filter((s) => !isDocumented(s)),
        unexercised: documented
          .filter((status) => !isExercised(status, exercised, documented))
          .map((status) => ({ status, ...explainUnexercised(op, status, known) })),
      };
    });
  }

  /** The exchange as a report shows it: secrets redacted, long bodies cut, a curl line on failures. */
  private recorded(
    exchange: Exchange,
    failed: boolean,
  ): Pick<CheckResult, 'request' | 'response' | 'curl'> {
    const request = this.redactor.request(exchange.request);
    const response = this.redactor.response({
      ...exchange.response,
      body: truncate(exchange.response.body),
    });
    return { request, response, ...(failed ? { curl: curlCommand(request) } : {}) };
  }

  private add(result: CheckResult): void {
    this.results.push(result);
    if (result.status === 'failed') this.failed++;
    this.onResult?.(result);
  }

  private result(
    check: string,
    op: SpecOperation,
    status: CheckResult['status'],
    detail: CheckFailure,
    exchange?: Exchange,
  ): CheckResult {
    return {
      check,
      operationId: op.operationId,
      method: op.method.toUpperCase(),
      path: op.path,
      status,
      message: detail.message,
      ...(detail.expected !== undefined ? { expected: detail.expected } : {}),
      ...(detail.actual !== undefined ? { actual: detail.actual } : {}),
      ...(exchange ? this.recorded(exchange, status === 'failed') : {}),
    };
  }
}

function truncate(body: string): string {
  return body.length > BODY_LIMIT
    ? `${body.slice(0, BODY_LIMIT)}… (${body.length} characters)`
    : body;
}
