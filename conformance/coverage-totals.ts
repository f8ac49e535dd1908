import { isExercised } from './coverage-reasons.js';
import type { CoverageRow, CoverageTotals } from './report.js';

/**
 * The coverage rows in numbers: documented pairs, received ones, the rest by reason, and the
 * gaps (`not-reached`) apart. A row without `unexercised` (a report of an older runner) counts
 * its missing pairs as gaps.
 *
 * @example
 * const { exercised, notReached } = coverageTotals(report.coverage);
 */
export function coverageTotals(
  rows: CoverageRow[],
  destructiveLeftOut: string[] = [],
): CoverageTotals {
  const totals: CoverageTotals = {
    documented: 0,
    exercised: 0,
    notProvokable: {},
    notReached: 0,
    undocumented: 0,
    ...(destructiveLeftOut.length > 0 ? { destructiveLeftOut } : {}),
  };
  for (const row of rows) {
    totals.documented += row.documented.length;
    totals.undocumented += row.undocumented.length;
    for (const status of row.documented) {
      if (isExercised(status, row.exercised, row.documented)) {
        totals.exercised++;
        continue;
      }
      const reason = row.unexercised?.find((u) => u.status === status)?.reason ?? 'not-reached';
      if (reason === 'not-reached') totals.notReached++;
      else totals.notProvokable[reason] = (totals.notProvokable[reason] ?? 0) + 1;
    }
  }
  return totals;
}

/** The gaps: `operationId status` of every documented pair provokable but not received. */
export function notReachedPairs(rows: CoverageRow[]): string[] {
  return rows.flatMap((row) =>
    row.documented
      .filter(
        (status) =>
          !isExercised(status, row.exercised, row.documented) &&
          (row.unexercised?.find((u) => u.status === status)?.reason ?? 'not-reached') ===
            'not-reached',
      )
      .map((status) => `${row.operationId} ${status}`),
  );
}
