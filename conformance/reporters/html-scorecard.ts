import type { ConformanceReport, ImplementedSummary } from '../report.js';
import { escapeMarkup } from './escape-markup.js';

const h = (text: string | number) => escapeMarkup(String(text));

/**
 * `Implemented 6 of 27 operations; not implemented: …` for the page's header, or '' when
 * operation_implemented did not run.
 *
 * @example
 * implementedParagraph(report.summary.implemented);
 */
export function implementedParagraph(implemented: ImplementedSummary | undefined): string {
  if (!implemented) return '';
  const { operations, of, missing } = implemented;
  const head = `Implemented ${h(operations)} of ${h(of)} operations`;
  if (missing.length === 0) return `<p class="passed">${head}.</p>`;
  const names = missing.map((id) => `<code>${h(id)}</code>`).join(', ');
  return `<p class="skipped">${head}; not implemented (${h(missing.length)}): ${names}.</p>`;
}

/**
 * The scorecard as a table: per operation in scope its passed, failed and skipped results and
 * the checks it fails, each with the rule ids it points at; "not implemented" where the target
 * lacks it.
 *
 * @example
 * scorecardSection(report); // '<section id="scorecard">…'
 */
export function scorecardSection(report: ConformanceReport): string {
  const scorecard = report.scorecard ?? [];
  if (scorecard.length === 0)
    return '<section id="scorecard"><h2>Scorecard</h2><p>None.</p></section>';
  const rows = scorecard.map((s) => {
    const name = `<td><code>${h(s.operationId)}</code></td><td><code>${h(s.method)} ${h(s.path)}</code></td>`;
    if (s.implemented === false)
      return `<tr>${name}<td colspan="4" class="skipped">not implemented</td></tr>`;
    const breaks = s.breaks
      .map(
        (b) =>
          `<code>${h(b.check)}</code>${b.failures > 1 ? ` ×${h(b.failures)}` : ''}` +
          (b.rules.length ? ` (${b.rules.map((r) => `<code>${h(r)}</code>`).join(', ')})` : ''),
      )
      .join('<br>');
    return (
      `<tr>${name}<td class="passed">${h(s.passed)}</td>` +
      `<td class="${s.failed ? 'failed' : ''}">${h(s.failed)}</td>` +
      `<td class="skipped">${h(s.skipped)}</td><td>${breaks}</td></tr>`
    );
  });
  return [
    '<section id="scorecard"><h2>Scorecard</h2>',
    '<table><thead><tr><th>Operation</th><th>Request</th><th>Passed</th><th>Failed</th><th>Skipped</th><th>Breaks (rules)</th></tr></thead><tbody>',
    ...rows,
    '</tbody></table></section>',
  ].join('\n');
}
