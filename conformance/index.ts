/**
 * The conformance runner as a library: run it, extend it with your own checks, render reports.
 *
 * @example
 * import { runConformance, createDefaultRegistry } from 'user-order-apikit/conform';
 * const report = await runConformance({ baseUrl: 'http://127.0.0.1:3000/api/v1', registry: createDefaultRegistry() });
 */
export {
  runConformance,
  ConformanceSetupError,
  type ConformanceOptions,
  type FuzzOptions,
  type ProgressEvent,
} from './run-conformance.js';
export { listChecks } from './run-plan.js';
export { createDefaultRegistry } from './checks/builtin-checks.js';
export { CheckRegistry } from './checks/check-registry.js';
export type {
  Check,
  CheckFailure,
  CheckRecorder,
  ResponseCheck,
  ScenarioCheck,
} from './checks/check.js';
export type { RunContext } from './run-context.js';
/** What a check may touch (`ctx.scope`), and the error a call outside it is refused with. */
export { OperationUnavailableError, type RunScope } from './run-scope.js';
export type {
  CheckResult,
  ConformanceReport,
  ConformanceSummary,
  CoverageRow,
  ImplementedSummary,
  OperationScore,
} from './report.js';
export type { FuzzStats } from './fuzz/fuzz-tally.js';
/** Parallel requests of a run, and parallel connections of its fuzz phase, unless told otherwise. */
export { DEFAULT_CONCURRENCY } from './http/target-client.js';
export { DEFAULT_FUZZ_CONCURRENCY } from './fuzz/run-fuzz.js';
/** Waits until a freshly started target answers (a CI step before the run). */
export { waitForTarget, type WaitForTargetOptions } from './http/wait-for-target.js';
/** Progress lines as the run goes, and the summaries a terminal shows after it. */
export { createConsoleProgress, renderConsoleSummary } from './reporters/console-reporter.js';
export { renderFuzzSummary } from './fuzz/fuzz-tally.js';
/** Where each reporter's document goes (`--reporter`, `--output`), checked before the run. */
export {
  FILE_REPORTERS,
  planReportOutputs,
  REPORTER_NAMES,
  ReportOutputError,
  type ReporterName,
} from './reporters/report-outputs.js';
/** Known failures accepted for now (`--baseline`): judge a report by them, write them, read them. */
export {
  BASELINE_MARKER,
  renderBaseline,
  type Baseline,
  type BaselineEntry,
  type BaselineSummary,
} from './baseline/baseline.js';
export { applyBaseline } from './baseline/apply-baseline.js';
export { updateBaseline } from './baseline/update-baseline.js';
export { parseBaseline, BaselineError } from './baseline/parse-baseline.js';
export { failureFingerprint, normalizeRule } from './baseline/failure-fingerprint.js';
export { renderJsonReport } from './reporters/json-reporter.js';
export { renderJunitReport } from './reporters/junit-reporter.js';
export { renderHtmlReport } from './reporters/html-reporter.js';
/** A frontend's recorded interactions (`--interactions FILE`, decision 0113): read and checked. */
export {
  InteractionFileError,
  parseInteractionFile,
} from '../spec/interactions/parse-interaction-file.js';
export { CONSUMER_INTERACTIONS } from './interactions/consumer-interactions.js';
export type {
  ConsumerCoverage,
  ConsumerOperation,
  ConsumerUse,
} from './interactions/consumer-coverage.js';
export type { InteractionFile } from '../spec/interactions/interaction-file.js';
