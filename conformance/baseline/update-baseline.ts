import type { ConformanceReport } from '../report.js';
import { normalizeEntries, type Baseline } from './baseline.js';
import { judgedPairs, pairKey } from './apply-baseline.js';
import { failureFingerprint } from './failure-fingerprint.js';

/**
 * The baseline a run leaves (`--update-baseline`): every failure of the run, and the entries
 * of the previous baseline that the run did not judge (their check did not run on their
 * operation), so that a narrowed run (`--checks`, `--include`) or one without ADMIN
 * credentials keeps what it could not see instead of calling it gone. A run that did not finish
 * (`summary.incomplete`) only adds.
 *
 * @example
 * await writeFile(file, renderBaseline(updateBaseline(report, previous)));
 */
export function updateBaseline(report: ConformanceReport, previous?: Baseline): Baseline {
  const ran = judgedPairs(report);
  // A run that stopped early may have judged part of a check on an operation: it adds, never drops.
  const kept = (previous?.entries ?? []).filter(
    (e) => report.summary.incomplete || !ran.has(pairKey(e.check, e.operationId)),
  );
  const failures = report.results.filter((r) => r.status === 'failed').map(failureFingerprint);
  return { entries: normalizeEntries([...kept, ...failures]) };
}
