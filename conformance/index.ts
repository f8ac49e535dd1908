/**
 * The conformance runner as a library: run it, extend it with your own checks, render reports.
 *
 * @example
 * import { runConformance, createDefaultRegistry } from 'apikit/conform';
 * const report = await runConformance({ baseUrl: 'http://127.0.0.1:3000/api/v1', registry: createDefaultRegistry() });
 */
export {
  runConformance,
  ConformanceSetupError,
  type ConformanceOptions,
  type ProgressEvent,
} from './run-conformance.js';
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
export type { CheckResult, ConformanceReport, ConformanceSummary, CoverageRow } from './report.js';
export { renderJsonReport } from './reporters/json-reporter.js';
export { renderJunitReport } from './reporters/junit-reporter.js';
export { renderHtmlReport } from './reporters/html-reporter.js';
