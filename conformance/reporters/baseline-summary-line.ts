import type { ConformanceReport } from '../report.js';

/**
 * The verdict in baseline terms, counted in entries (check, operation, rule): e.g.
 * `3 new failures, 41 known (baseline), 2 fixed since the baseline`; the console and the HTML
 * report say it under the results, undefined when no baseline judged the run.
 *
 * @example
 * baselineSummaryLine(applyBaseline(report, baseline)); // '0 new failures, 41 known (baseline), …'
 */
export function baselineSummaryLine(report: ConformanceReport): string | undefined {
  const baseline = report.summary.baseline;
  if (!baseline) return undefined;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  return (
    `${plural(baseline.new, 'new failure')}, ${baseline.known} known (baseline), ` +
    `${baseline.fixed} fixed since the baseline` +
    (baseline.notRun > 0 ? `, ${baseline.notRun} not judged by this run` : '')
  );
}
