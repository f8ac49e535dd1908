import type { CheckResult, ConformanceReport } from '../report.js';
import { entryKey, normalizeEntries, type Baseline, type BaselineEntry } from './baseline.js';
import { failureFingerprint } from './failure-fingerprint.js';

/**
 * The report judged against a baseline: each failure in it marked `baselined`, and
 * `summary.baseline` saying which failures are new (these fail the run), which are known, and
 * which entries are fixed. An entry is fixed only where its check ran on its operation (a
 * result passed or failed there) and failed no more that way; one the run did not judge (left
 * out by `--checks` or `--include`, skipped, or after an interrupt) is `notRun`, never fixed.
 * Pure: the report given is left as it was.
 *
 * @example
 * const judged = applyBaseline(report, parseBaseline(await readFile('conform-baseline.json', 'utf8')));
 * process.exitCode = judged.summary.baseline!.new > 0 ? 1 : 0;
 */
export function applyBaseline(report: ConformanceReport, baseline: Baseline): ConformanceReport {
  const accepted = new Set(baseline.entries.map(entryKey));
  const failing = new Map<string, BaselineEntry>();
  const results = report.results.map((result): CheckResult => {
    if (result.status !== 'failed') return result;
    const entry = failureFingerprint(result);
    failing.set(entryKey(entry), entry);
    return accepted.has(entryKey(entry)) ? { ...result, baselined: true } : result;
  });
  const failingEntries = normalizeEntries(failing.values());
  const ran = judgedPairs(report);
  const unmatched = baseline.entries.filter((e) => !failing.has(entryKey(e)));
  // A run that stopped early may have judged part of a check on an operation: not a fix.
  const isFixed = (e: BaselineEntry) =>
    !report.summary.incomplete && ran.has(pairKey(e.check, e.operationId));
  const entries = {
    new: failingEntries.filter((e) => !accepted.has(entryKey(e))),
    known: failingEntries.filter((e) => accepted.has(entryKey(e))),
    fixed: unmatched.filter(isFixed),
    notRun: unmatched.filter((e) => !isFixed(e)),
  };
  return {
    ...report,
    summary: {
      ...report.summary,
      baseline: {
        new: entries.new.length,
        known: entries.known.length,
        fixed: entries.fixed.length,
        notRun: entries.notRun.length,
        entries,
      },
    },
    results,
  };
}

/**
 * The (check, operation) pairs the run judged: a result passed or failed there. A skip is no
 * judgement, and a response check that saw no exchange of an operation has no result for it.
 */
export function judgedPairs(report: ConformanceReport): Set<string> {
  const pairs = new Set<string>();
  for (const r of report.results)
    if (r.status !== 'skipped') pairs.add(pairKey(r.check, r.operationId));
  return pairs;
}

export function pairKey(check: string, operationId: string): string {
  return `${check}\u0000${operationId}`;
}
