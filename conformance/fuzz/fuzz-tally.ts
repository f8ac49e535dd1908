import type { SpecOperation } from '../../spec/operations.js';
import type { Exchange } from '../http/target-client.js';
import type { FuzzCase } from './fuzz-operation.js';
import { FUZZ_ORACLES, type FuzzOracle, type OracleFailure } from './fuzz-oracles.js';

/** Distinct failures kept per oracle and operation; the rest are counted. */
export const FINDINGS_KEPT = 5;

/** A failure of an oracle with the exchange that shows it and the case that caused it. */
export interface FuzzFinding extends OracleFailure {
  exchange: Exchange;
  testCase: FuzzCase;
}

/** What fuzzing one operation found. */
export interface OperationVerdict {
  op: SpecOperation;
  /** Fuzz cases sent (read-backs not included). */
  cases: number;
  /** Writes (POST, PUT, PATCH, DELETE) the target accepted with a 2xx. */
  accepted: number;
  /** Accepted writes that were read back and compared. */
  readBacks: number;
  /** Failures per oracle, all of them. */
  failures: Record<FuzzOracle, number>;
  /** The first distinct failures per oracle (FINDINGS_KEPT at most). */
  findings: Record<FuzzOracle, FuzzFinding[]>;
  /** Statuses answered to the cases: `400×12, 201×3`. */
  statuses: Map<number, number>;
  /** Set when the target kept answering 429 and the operation was left early. */
  rateLimitedOut: boolean;
}

/** The numbers of a fuzz phase, for the summary and the JSON report. */
export interface FuzzStats {
  seed: number;
  perOperation: number;
  operations: number;
  /** Every request of the phase: cases and read-backs. */
  requests: number;
  cases: number;
  readBacks: number;
  durationMs: number;
  requestsPerSecond: number;
  /** Answers per status code. */
  statuses: Record<string, number>;
  serverErrors: number;
  violations: number;
  readBackMismatches: number;
  headerInjections: number;
  /** Answers of 429 (not failures: the target protects itself). */
  rateLimited: number;
  /** Operations left early because the target kept answering 429. */
  rateLimitedOut: string[];
}

export function newVerdict(op: SpecOperation): OperationVerdict {
  const per = <T>(make: () => T) =>
    Object.fromEntries(FUZZ_ORACLES.map((o) => [o, make()])) as Record<FuzzOracle, T>;
  return {
    op,
    cases: 0,
    accepted: 0,
    readBacks: 0,
    failures: per(() => 0),
    findings: per((): FuzzFinding[] => []),
    statuses: new Map(),
    rateLimitedOut: false,
  };
}

/** Counts a failure and keeps it when its message is new for the oracle and operation. */
export function note(
  verdict: OperationVerdict,
  failure: OracleFailure,
  exchange: Exchange,
  testCase: FuzzCase,
): void {
  verdict.failures[failure.oracle]++;
  const kept = verdict.findings[failure.oracle];
  if (kept.length >= FINDINGS_KEPT || kept.some((f) => f.message === failure.message)) return;
  kept.push({ ...failure, exchange, testCase });
}

/** Adds up the verdicts of a phase. */
export function fuzzStats(
  verdicts: OperationVerdict[],
  base: { seed: number; perOperation: number; requests: number; durationMs: number },
  statuses: Map<number, number>,
): FuzzStats {
  const sum = (f: (v: OperationVerdict) => number) => verdicts.reduce((n, v) => n + f(v), 0);
  return {
    ...base,
    operations: verdicts.length,
    cases: sum((v) => v.cases),
    readBacks: sum((v) => v.readBacks),
    requestsPerSecond: Math.round(base.requests / Math.max(base.durationMs / 1000, 0.001)),
    statuses: Object.fromEntries(
      [...statuses].sort(([a], [b]) => a - b).map(([s, n]) => [String(s), n]),
    ),
    serverErrors: [...statuses].filter(([s]) => s >= 500).reduce((n, [, c]) => n + c, 0),
    violations: sum((v) => v.failures.response_conformance),
    readBackMismatches: sum((v) => v.failures.read_back),
    headerInjections: sum((v) => v.failures.header_injection),
    rateLimited: statuses.get(429) ?? 0,
    rateLimitedOut: verdicts.filter((v) => v.rateLimitedOut).map((v) => v.op.operationId),
  };
}

/**
 * One line for a terminal: requests, throughput, and what each oracle found.
 *
 * @example
 * // fuzz: 9,412 requests in 3.1 s (3,036/s), 200 per operation · 0 5xx · 0 violations · ...
 */
export function renderFuzzSummary(stats: FuzzStats): string {
  const n = (x: number) => x.toLocaleString('en-US');
  const parts = [
    `fuzz: ${n(stats.requests)} requests in ${(stats.durationMs / 1000).toFixed(1)} s (${n(stats.requestsPerSecond)} requests/s), ${n(stats.perOperation)} cases per operation over ${stats.operations} operations`,
    `${n(stats.serverErrors)} 5xx`,
    `${n(stats.violations)} schema violations`,
    `${n(stats.readBackMismatches)} read-back mismatches (${n(stats.readBacks)} read-backs)`,
    `${n(stats.headerInjections)} header injections`,
    `${n(stats.rateLimited)} answered 429`,
    `seed ${stats.seed}`,
  ];
  let line = parts.join(' · ');
  if (stats.rateLimitedOut.length > 0)
    line += `\nfuzz: the target kept answering 429, so ${stats.rateLimitedOut.length} operation(s) were left early (${stats.rateLimitedOut.slice(0, 5).join(', ')}${stats.rateLimitedOut.length > 5 ? ', …' : ''}); fuzz a target with its rate limits off for a thorough run`;
  return `${line}\n`;
}
