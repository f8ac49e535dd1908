import type { BaselineEntry } from '../baseline/baseline.js';
import type { ConformanceReport } from '../report.js';
import { visibleControls } from './escape-markup.js';
import { groupByCheck, resultName } from './group-results.js';

/** The colors the console reporter lends. */
export interface BaselinePalette {
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
}

/**
 * What a run judged by a baseline adds to the console after its new failures: the entries
 * fixed since (to take out of the file with --update-baseline), then the known failures, one
 * line each, as their details are old news and would bury the new ones.
 *
 * @example
 * lines.push(...baselineSections(judged, palette));
 */
export function baselineSections(report: ConformanceReport, c: BaselinePalette): string[] {
  const baseline = report.summary.baseline;
  if (!baseline) return [];
  const out: string[] = [];
  if (baseline.fixed > 0) {
    out.push(c.green(c.bold(`Fixed since the baseline (${baseline.fixed})`)));
    for (const entry of baseline.entries.fixed) out.push(`  ${c.green('✓')} ${entryLine(entry)}`);
    out.push(c.dim('  (run with --update-baseline to take them out of the file)'), '');
  }
  const known = groupByCheck(
    report.results.filter((r) => r.baselined),
    'failed',
  );
  if (known.size > 0) {
    const count = [...known.values()].reduce((sum, list) => sum + list.length, 0);
    out.push(c.yellow(c.bold(`Known failures (baseline) (${count})`)));
    for (const [check, list] of known) {
      out.push(`  ${check} (${list.length})`);
      for (const result of list)
        out.push(c.dim(`    ~ ${clean(resultName(result))}: ${clean(firstLine(result.message))}`));
    }
    out.push('');
  }
  return out;
}

function entryLine(entry: BaselineEntry): string {
  return clean(
    `${entry.check}: ${entry.operationId === '*' ? '(all operations)' : entry.operationId}: ${entry.rule}`,
  );
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}

/** Report text may come from the target: never let it move the cursor or recolor the terminal. */
function clean(text: string): string {
  return visibleControls(text).replace(/\r/g, '\\r');
}
