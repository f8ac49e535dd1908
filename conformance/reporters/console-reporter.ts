import type { CheckResult, ConformanceReport } from '../report.js';
import { coverageTotals, notReachedPairs } from '../coverage-totals.js';
import { baselineSummaryLine } from './baseline-summary-line.js';
import { baselineSections } from './console-baseline.js';
import { coverageMatrix, type CoverageCell } from './coverage-matrix.js';
import { curlVariablesLine } from './curl-variables-line.js';
import { visibleControls } from './escape-markup.js';
import { groupByCheck, groupSkips, resultName } from './group-results.js';
import { implementedLine, scorecardLines } from './console-scorecard.js';
import { consumerCoverageLines } from './consumer-coverage-lines.js';

export { createConsoleProgress, type ConsoleProgressOptions } from './console-progress.js';

export interface ConsoleSummaryOptions {
  /** ANSI colors (the CLI asks for them on a TTY without NO_COLOR). */
  color?: boolean;
  /** Failures shown per check; the rest are counted (every one is in the json/html reports). */
  maxFailuresPerCheck?: number;
}

/** Long values (bodies) are cut in the terminal; the json and html reports keep them whole. */
const VALUE_LIMIT = 600;

/**
 * The end-of-run report for a terminal: failures grouped by check (each with expected vs
 * actual and a curl line), skips grouped by reason, the summary line (with how many operations
 * the target implements), the coverage matrix, and the scorecard per operation.
 *
 * @example
 * process.stdout.write(renderConsoleSummary(report, { color: process.stdout.isTTY }));
 */
export function renderConsoleSummary(
  report: ConformanceReport,
  options: ConsoleSummaryOptions = {},
): string {
  const c = palette(options.color ?? false);
  const maxFailures = options.maxFailuresPerCheck ?? 25;
  const { summary } = report;
  const out: string[] = [];
  out.push(
    c.bold(
      `${clean(summary.specTitle)} ${clean(summary.specVersion)} against ${clean(summary.target)}`,
    ),
    '',
  );

  // Judged by a baseline, the failures it accepts are listed apart, after the new ones.
  const fresh = report.results.filter((r) => !r.baselined);
  const failures = groupByCheck(fresh, 'failed');
  if (failures.size > 0) {
    const count = summary.baseline
      ? `New failures (${fresh.filter((r) => r.status === 'failed').length})`
      : `Failures (${summary.results.failed})`;
    out.push(c.red(c.bold(count)), '');
    const curlVariables = curlVariablesLine(summary);
    if (curlVariables) out.push(c.dim(clean(curlVariables)), '');
    for (const [check, list] of failures) {
      out.push(c.bold(`${check} (${list.length})`));
      for (const result of list.slice(0, maxFailures)) out.push(...failureLines(result, c), '');
      if (list.length > maxFailures)
        out.push(
          c.dim(`  … and ${list.length - maxFailures} more (see --reporter html or json)`),
          '',
        );
    }
  }

  out.push(...baselineSections(report, c));

  const skips = groupSkips(report.results);
  if (skips.length > 0) {
    out.push(c.yellow(c.bold(`Skipped (${summary.results.skipped})`)));
    for (const group of skips) {
      const names = group.results.map((r) => (r.operationId === '*' ? 'all' : r.operationId));
      const shown = names.slice(0, 4).join(', ') + (names.length > 4 ? ', …' : '');
      out.push(`  ${group.check} ×${group.results.length}: ${clean(group.reason)}`);
      out.push(c.dim(`    ${clean(shown)}`));
    }
    out.push('');
  }

  const { results } = summary;
  out.push(
    `${summary.checks.length} checks, ${results.total} results: ${c.green(`${results.passed} passed`)}, ` +
      `${results.failed ? c.red(`${results.failed} failed`) : '0 failed'}, ` +
      `${results.skipped ? c.yellow(`${results.skipped} skipped`) : '0 skipped'}` +
      ` · ${summary.requests} requests · ${(summary.durationMs / 1000).toFixed(1)} s · seed ${summary.seed}`,
    ...(summary.implemented ? [implementedLine(summary.implemented, c)] : []),
    '',
  );
  const baselineLine = baselineSummaryLine(report);
  if (baselineLine)
    out.push(summary.baseline?.new ? c.red(baselineLine) : c.green(baselineLine), '');
  if (summary.incomplete)
    out.push(
      c.red(c.bold(`The run did not finish: ${clean(summary.incomplete)}.`)) +
        ' The results are those of the checks that ran before; this is not a full verdict.',
      '',
    );
  out.push(...consumerCoverageLines(report, c));
  out.push(...coverageLines(report, c));
  const scorecard = scorecardLines(report.scorecard ?? [], c);
  if (scorecard.length > 0) out.push('', ...scorecard);
  return out.join('\n') + '\n';
}

function failureLines(result: CheckResult, c: Palette): string[] {
  const lines = [`  ${c.red('✗')} ${clean(resultName(result))}`, indent(clean(result.message), 4)];
  if (result.expected !== undefined)
    lines.push(indent(`expected: ${cut(clean(result.expected))}`, 4));
  if (result.actual !== undefined) lines.push(indent(`actual:   ${cut(clean(result.actual))}`, 4));
  if (result.curl) lines.push(c.dim(indent(clean(result.curl), 4)));
  return lines;
}

const MARKS: Record<CoverageCell, string> = {
  exercised: '●',
  missed: '○',
  excused: '–',
  undocumented: '!',
  none: '·',
};

function coverageLines(report: ConformanceReport, c: Palette): string[] {
  const matrix = coverageMatrix(report.coverage);
  if (matrix.rows.length === 0) return [];
  const labels = matrix.rows.map(({ row }) =>
    clean(`${row.operationId} ${row.method} ${row.path}`),
  );
  const width = Math.max(9, ...labels.map((l) => l.length));
  const cellWidth = Math.max(3, ...matrix.columns.map((k) => k.length));
  const paint: Record<CoverageCell, (s: string) => string> = {
    exercised: c.green,
    missed: c.yellow,
    excused: c.dim,
    undocumented: c.red,
    none: c.dim,
  };
  const lines = [
    c.bold('Coverage') +
      c.dim(`  ${MARKS.exercised} exercised  ${MARKS.missed} provokable, not reached  `) +
      c.dim(`${MARKS.excused} not provokable by this run  `) +
      c.dim(`${MARKS.undocumented} undocumented but seen`),
    `${'operation'.padEnd(width)}  ${matrix.columns.map((k) => clean(k).padStart(cellWidth)).join(' ')}`,
  ];
  matrix.rows.forEach(({ cells }, i) => {
    const marks = cells.map((cell) => paint[cell](MARKS[cell].padStart(cellWidth)));
    lines.push(`${(labels[i] ?? '').padEnd(width)}  ${marks.join(' ')}`);
  });
  const percent = matrix.documentedPairs
    ? Math.round((100 * matrix.exercisedPairs) / matrix.documentedPairs)
    : 100;
  lines.push(
    `${matrix.exercisedPairs}/${matrix.documentedPairs} documented (operation, status) pairs exercised (${percent}%)` +
      (matrix.undocumentedPairs
        ? c.red(`; ${matrix.undocumentedPairs} undocumented status(es) seen`)
        : ''),
    ...reasonLines(report, c),
  );
  return lines;
}

/** Gaps shown by name, at most this many; the JSON report has them all. */
const GAPS_SHOWN = 20;

/** The unexercised pairs in numbers: by reason, and the gaps apart, named. */
function reasonLines(report: ConformanceReport, c: Palette): string[] {
  const totals = report.summary.coverage ?? coverageTotals(report.coverage);
  const reasons = Object.entries(totals.notProvokable).sort(
    ([r, a], [s, b]) => b - a || r.localeCompare(s),
  );
  const lines: string[] = [];
  if (reasons.length > 0)
    lines.push(
      `not provokable by this run: ${reasons.map(([reason, n]) => `${n} ${reason}`).join(', ')}` +
        c.dim(' (why: coverage[].unexercised in --reporter json)'),
    );
  if (totals.destructiveLeftOut?.length)
    lines.push(
      c.dim(
        `left out as destructive (--allow-destructive): ${totals.destructiveLeftOut.map(clean).join(', ')}`,
      ),
    );
  const gaps = notReachedPairs(report.coverage);
  lines.push(
    gaps.length === 0
      ? 'provokable but not reached: 0'
      : c.yellow(`provokable but not reached: ${gaps.length}`) +
          `: ${gaps.slice(0, GAPS_SHOWN).map(clean).join(', ')}` +
          (gaps.length > GAPS_SHOWN ? `, … (${gaps.length - GAPS_SHOWN} more)` : ''),
  );
  return lines;
}

/** Report text may come from the target: never let it move the cursor or recolor the terminal. */
function clean(text: string): string {
  return visibleControls(text).replace(/\r/g, '\\r');
}

function cut(text: string): string {
  return text.length > VALUE_LIMIT
    ? `${text.slice(0, VALUE_LIMIT)}… (${text.length} characters)`
    : text;
}

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((line) => pad + line)
    .join('\n');
}

type Palette = Record<'bold' | 'dim' | 'red' | 'green' | 'yellow', (s: string) => string>;

function palette(color: boolean): Palette {
  const sgr = (open: number, close: number) => (s: string) =>
    color ? `\x1b[${open}m${s}\x1b[${close}m` : s;
  return {
    bold: sgr(1, 22),
    dim: sgr(2, 22),
    red: sgr(31, 39),
    green: sgr(32, 39),
    yellow: sgr(33, 39),
  };
}
