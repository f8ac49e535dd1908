/**
 * The conformance report: what `runConformance` returns, `--reporter json` writes, and every
 * other reporter renders. Documented in the README; keep it stable.
 */

import type { FuzzStats } from './fuzz/fuzz-tally.js';

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
}

export interface ConformanceReport {
  summary: ConformanceSummary;
  results: CheckResult[];
  coverage: CoverageRow[];
}
