import type { ImplementedSummary, OperationScore } from '../report.js';
import { visibleControls } from './escape-markup.js';

type Paint = Record<'bold' | 'dim' | 'red' | 'green' | 'yellow', (s: string) => string>;

/** Missing operations named in the line, at most this many; the JSON report has them all. */
const MISSING_SHOWN = 30;

/**
 * `implemented 6 of 27 operations; not implemented (21): ...`: what operation_implemented found.
 *
 * @example
 * implementedLine({ operations: 6, of: 27, missing: ['replaceUser'] }, paint);
 */
export function implementedLine(implemented: ImplementedSummary, c: Paint): string {
  const { operations, of, missing } = implemented;
  const head = `implemented ${operations} of ${of} operations`;
  if (missing.length === 0) return head;
  const shown = missing.slice(0, MISSING_SHOWN).map(clean).join(', ');
  const more = missing.length > MISSING_SHOWN ? `, … (${missing.length - MISSING_SHOWN} more)` : '';
  return `${c.yellow(head)}; not implemented (${missing.length}): ${shown}${more}`;
}

/**
 * The scorecard for a terminal: per operation, its passed, failed and skipped results and the
 * checks it fails with the rule ids they point at; "not implemented" for one the target lacks.
 *
 * @example
 * process.stdout.write(scorecardLines(report.scorecard ?? [], paint).join('\n'));
 */
export function scorecardLines(scorecard: OperationScore[], c: Paint): string[] {
  if (scorecard.length === 0) return [];
  const labels = scorecard.map((s) => clean(`${s.operationId} ${s.method} ${s.path}`));
  const width = Math.max(9, ...labels.map((l) => l.length));
  const lines = [
    c.bold('Scorecard') + c.dim('  per operation: passed, failed, skipped; what it breaks'),
  ];
  scorecard.forEach((score, i) => {
    const label = (labels[i] ?? '').padEnd(width);
    if (score.implemented === false) {
      lines.push(`${label}  ${c.yellow('not implemented')}`);
      return;
    }
    const counts =
      `${c.green(String(score.passed).padStart(4))} ` +
      `${(score.failed ? c.red : c.dim)(String(score.failed).padStart(4))} ` +
      `${c.dim(String(score.skipped).padStart(4))}`;
    const breaks = score.breaks
      .map(
        (b) =>
          `${clean(b.check)}${b.failures > 1 ? ` ×${b.failures}` : ''}` +
          (b.rules.length ? c.dim(` (${b.rules.map(clean).join(', ')})`) : ''),
      )
      .join(', ');
    lines.push(`${label}  ${counts}${breaks ? `  ${breaks}` : ''}`);
  });
  return lines;
}

/** Text from the spec: never let it move the cursor or recolor the terminal. */
function clean(text: string): string {
  return visibleControls(text).replace(/\r/g, '\\r');
}
