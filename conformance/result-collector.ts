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
import type { SecretRedactor, ShellVariable } from './secret-redactor.js';
import { NOT_IMPLEMENTED, OPERATION_IMPLEMENTED } from './checks/probe/operation-implemented.js';
import type { RunScope } from './run-scope.js';

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
  private readonly skippedMissing = new Set<string>();
  /** Exchanges judged already: one may reach `observe` from its sender and from the client. */
  private readonly observed = new WeakSet<Exchange>();
  failed = 0;

  constructor(
    private readonly redactor: SecretRedactor,
    private readonly onResult?: (result: CheckResult) => void,
    /** The run's scope: nothing is reported on an operation outside it (decision 0096). */
    private readonly scope?: RunScope,
  ) {}

  /**
   * A recorder for one active check. A pass or failure on an operation out of scope is
   * dropped, a skip on one is the run's (`*`), naming it (why the check judged nothing); a
   * result on an operation the target lacks becomes a skip (operation_implemented alone
   * judges it).
   */
  recorder(check: string): CheckRecorder {
    const held = (op: SpecOperation | undefined, record: () => void) => {
      if (op && this.scope && !this.scope.reports(op)) return;
      const missing = op && check !== OPERATION_IMPLEMENTED && this.scope?.missingReason(op);
      if (op && missing) return this.skipNotImplemented(check, op);
      record();
    };
    return {
      pass: (op, message, exchange) =>
        held(op, () => this.add(this.result(check, op, 'passed', { message }, exchange))),
      fail: (op, failure, exchange) =>
        held(op, () => this.add(this.result(check, op, 'failed', failure, exchange))),
      skip: (op, reason) =>
        op && this.scope && !this.scope.reports(op)
          ? this.recorder(check).skip(undefined, `${op.operationId} (out of scope): ${reason}`)
          : held(op, () =>
              this.add({
                check,
                operationId: op?.operationId ?? '*',
                method: op?.method.toUpperCase() ?? '*',
                path: op?.path ?? '*',
                status: 'skipped',
                message: reason,
              }),
            ),
    };
  }

  /** The one skip that stands for every result of `check` on an operation the target lacks. */
  private skipNotImplemented(check: string, op: SpecOperation): void {
    const key = `${check}\u0000${op.operationId}`;
    if (this.skippedMissing.has(key)) return;
    this.skippedMissing.add(key);
    this.add({
      check,
      operationId: op.operationId,
      method: op.method.toUpperCase(),
      path: op.path,
      status: 'skipped',
      message: NOT_IMPLEMENTED,
    });
  }

  /** Runs the response checks on one exchange attributed to `op` (once per exchange). */
  observe(
    op: SpecOperation,
    exchange: Exchange,
    checks: ResponseCheck[],
    run: (check: ResponseCheck) => CheckFailure[],
  ): void {
    if (this.scope && this.scope.unavailable(op) !== undefined) return;
    if (this.observed.has(exchange)) return;
    this.observed.add(exchange);
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

  /**
   * Results on an operation found missing that came in before it was (a resource asked of it
   * while operation_implemented was still in doubt) become its one "not implemented" skip.
   */
  settleMissing(): void {
    if (!this.scope) return;
    const missing = new Set(this.scope.missingOperations().map(({ op }) => op.operationId));
    const kept: CheckResult[] = [];
    const converted = new Set<string>();
    for (const result of this.results) {
      if (result.check === OPERATION_IMPLEMENTED || !missing.has(result.operationId)) {
        kept.push(result);
        continue;
      }
      if (result.status === 'failed') this.failed--;
      const key = `${result.check}\u0000${result.operationId}`;
      if (converted.has(key) || this.skippedMissing.has(key)) continue;
      converted.add(key);
      this.skippedMissing.add(key);
      kept.push({ ...pick(result), status: 'skipped', message: NOT_IMPLEMENTED });
    }
    this.results.splice(0, this.results.length, ...kept);
  }

  /** The shell variables the curl lines so far use, each once (decision 0098). */
  curlVariables(): ShellVariable[] {
    return this.redactor.usedVariables();
  }

  /** One passed result per response check and operation that never failed. */
  finishResponseChecks(): void {
    for (const verdict of this.responseVerdicts.values()) {
      if (verdict.failures.size > 0) continue;
      if (this.scope?.unavailable(verdict.op)) continue;
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
    // The curl line is built from the request as sent: the redactor hides every secret in it,
    // and names the run's access tokens by shell variables so that the line runs (0098).
    const curl = failed ? { curl: curlCommand(exchange.request, this.redactor) } : {};
    return { request, response, ...curl };
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

function pick(result: CheckResult): Pick<CheckResult, 'check' | 'operationId' | 'method' | 'path'> {
  return {
    check: result.check,
    operationId: result.operationId,
    method: result.method,
    path: result.path,
  };
}

function truncate(body: string): string {
  return body.length > BODY_LIMIT
    ? `${body.slice(0, BODY_LIMIT)}… (${body.length} characters)`
    : body;
}
