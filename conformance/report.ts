/**
 * The conformance report: what `runConformance` returns, `--reporter json` writes, and every
 * other reporter renders. Documented in the README; keep it stable.
 */

import type { BaselineSummary } from './baseline/baseline.js';
import type { CoverageReason, UnexercisedStatus } from './coverage-reasons.js';
import type { FuzzStats } from './fuzz/fuzz-tally.js';
import type { ConsumerCoverage } from './interactions/consumer-coverage.js';

export type { CoverageReason, UnexercisedStatus } from './coverage-reasons.js';
export type {
  ConsumerCoverage,
  ConsumerOperation,
  ConsumerUse,
} from './interactions/consumer-coverage.js';

/** A request as sent, enough to reproduce it. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** A response as received (the body truncated for reports when large). */
export interface RecordedResponse {
  status: number;
  headers: Record<string, string>;
  body?: string;
  durationMs: number;
}

export type ResultStatus = 'passed' | 'failed' | 'skipped';

/** One check applied to one operation (or to one request of it). */
export interface CheckResult {
  check: string;
  operationId: string;
  method: string;
  /** The spec's path template, e.g. `/users/{id}`. */
  path: string;
  status: ResultStatus;
  /** What was checked (passed), what is wrong (failed), or why it did not run (skipped). */
  message: string;
  /** For failures: what the contract expects and what came back. */
  expected?: string;
  actual?: string;
  request?: RecordedRequest;
  response?: RecordedResponse;
  /** A shell command that sends the same request again. */
  curl?: string;
  /** A failure the `--baseline` file accepts: shown, not counted toward the exit code. */
  baselined?: true;
}

/** Operations x documented status codes, and which were seen. */
export interface CoverageRow {
  operationId: string;
  method: string;
  path: string;
  documented: string[];
  exercised: string[];
  /** Statuses received that the spec does not document for the operation. */
  undocumented: string[];
  /**
   * Each documented status not received, with why (`coverage-reasons.ts`): the run could not
   * provoke it (a reason of the catalog), or could have and did not (`not-reached`).
   */
  unexercised?: UnexercisedStatus[];
}

/** The coverage in numbers: documented (operation, status) pairs and what became of them. */
export interface CoverageTotals {
  documented: number;
  exercised: number;
  /** Documented pairs the run could not provoke, by reason (`not-reached` excluded). */
  notProvokable: Partial<Record<CoverageReason, number>>;
  /** Documented pairs the run could have provoked and did not: the gaps to look at. */
  notReached: number;
  /** Received pairs the spec does not document. */
  undocumented: number;
  /** Operations left out as destructive (no row): pass --allow-destructive to cover them. */
  destructiveLeftOut?: string[];
}

/** One operation's line of the scorecard (decision 0096): how it fared, check by check. */
export interface OperationScore {
  operationId: string;
  method: string;
  path: string;
  /** false when operation_implemented found the target lacks it; absent when not probed. */
  implemented?: boolean;
  /** Its results: one per check that judged it (plus each distinct failure). */
  passed: number;
  failed: number;
  skipped: number;
  /**
   * The checks that failed on it, with the rule ids of the bundled contract each points at
   * (conformance/rules; none for another --spec, or where a check judges many rules).
   */
  breaks: { check: string; failures: number; rules: string[] }[];
}

/** What operation_implemented found: how many of the probed operations the target routes. */
export interface ImplementedSummary {
  /** Operations implemented. */
  operations: number;
  /** Operations probed: those selected, OPTIONS and destructive ones aside. */
  of: number;
  /** The operationIds of those the target lacks, in spec order. */
  missing: string[];
}

export interface ConformanceSummary {
  target: string;
  specTitle: string;
  specVersion: string;
  seed: number;
  startedAt: string;
  durationMs: number;
  requests: number;
  /** The checks that ran, by name. */
  checks: string[];
  /** Results: one per check and operation judged (plus each distinct failure). */
  results: { total: number; passed: number; failed: number; skipped: number };
  /** Failed results per check name. */
  failuresByCheck: Record<string, number>;
  /**
   * Set when the run did not finish (interrupted, or the target stopped answering midway):
   * why. The results are then those of the checks that ran; the verdict is not a full one.
   */
  incomplete?: string;
  /** Time the run held its requests back to stay within the target's rate limits, ms. */
  pacedMs?: number;
  /** The rate-limit policies the target announced (`RateLimit-Policy`). */
  rateLimits?: { policy: string; quota?: number; windowSeconds?: number }[];
  /** The numbers of the fuzz phase, when the run fuzzed (`fuzz` option, `--fuzz N`). */
  fuzz?: FuzzStats;
  /** The coverage rows in numbers, with why the unexercised pairs were not reached. */
  coverage?: CoverageTotals;
  /**
   * The shell variables the failures' curl lines use for the run's access tokens, each with
   * what to export in it (`APIKIT_TOKEN`: an access token of the user; decision 0098).
   */
  curlVariables?: { name: string; holds: string }[];
  /** Set when operation_implemented ran: how many operations the target implements, and which not. */
  implemented?: ImplementedSummary;
  /** Set when a baseline judged the run (`--baseline`, `applyBaseline`): new, known, fixed. */
  baseline?: BaselineSummary;
}

export interface ConformanceReport {
  summary: ConformanceSummary;
  results: CheckResult[];
  coverage: CoverageRow[];
  /** Per operation in scope: passed, failed, skipped, and the rules it breaks. */
  scorecard?: OperationScore[];
  /**
   * With recorded interactions (`--interactions FILE`, decision 0113): what the consumer's
   * tests use of the contract, operation by operation, and how the replay of each fared.
   */
  consumer?: ConsumerCoverage;
}
