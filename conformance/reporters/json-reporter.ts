import type { ConformanceReport } from '../report.js';

/**
 * The report as pretty JSON: the documented machine-readable format (`--reporter json`), the
 * ConformanceReport exactly as `runConformance` returns it.
 *
 * @example
 * await writeFile('report.json', renderJsonReport(report));
 */
export function renderJsonReport(report: ConformanceReport): string {
  return JSON.stringify(report, null, 2) + '\n';
}
