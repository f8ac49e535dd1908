import { isExercised } from '../coverage-reasons.js';
import type { CoverageRow, UnexercisedStatus } from '../report.js';

/**
 * One cell: the status was received and is documented (`exercised`), documented but never
 * received though the run could have provoked it (`missed`), documented and not provokable by
 * this run (`excused`, its reason in `notes`), received but not documented (`undocumented`), or
 * neither (`none`).
 */
export type CoverageCell = 'exercised' | 'missed' | 'excused' | 'undocumented' | 'none';

export interface CoverageMatrix {
  /** Every status key of any row, in order: codes ascending, `4XX` after the 4xx codes, `default` last. */
  columns: string[];
  /** `notes[i]`: why the status of column i was not received, where the row says. */
  rows: { row: CoverageRow; cells: CoverageCell[]; notes: (UnexercisedStatus | undefined)[] }[];
  /** (operation, documented status) pairs, and how many of them were received. */
  documentedPairs: number;
  exercisedPairs: number;
  /** (operation, status) pairs received that the spec does not document. */
  undocumentedPairs: number;
}

/**
 * The coverage rows as a matrix of operations x status keys, shared by the reporters.
 *
 * @example
 * const { columns, rows, exercisedPairs, documentedPairs } = coverageMatrix(report.coverage);
 */
export function coverageMatrix(coverage: CoverageRow[]): CoverageMatrix {
  const keys = new Set<string>();
  for (const row of coverage)
    for (const key of [...row.documented, ...row.exercised, ...row.undocumented]) keys.add(key);
  const columns = [...keys].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  let documentedPairs = 0;
  let exercisedPairs = 0;
  let undocumentedPairs = 0;
  const rows = coverage.map((row) => {
    documentedPairs += row.documented.length;
    undocumentedPairs += row.undocumented.length;
    for (const key of row.documented) if (cellOf(row, key) === 'exercised') exercisedPairs++;
    const notes = columns.map((key) => row.unexercised?.find((u) => u.status === key));
    return { row, cells: columns.map((key) => cellOf(row, key)), notes };
  });
  return { columns, rows, documentedPairs, exercisedPairs, undocumentedPairs };
}

function cellOf(row: CoverageRow, key: string): CoverageCell {
  if (row.undocumented.includes(key)) return 'undocumented';
  if (row.exercised.includes(key)) return 'exercised';
  if (!row.documented.includes(key)) return 'none';
  // A documented range is covered by any received status of its class.
  if (isExercised(key, row.exercised, row.documented)) return 'exercised';
  const reason = row.unexercised?.find((u) => u.status === key)?.reason ?? 'not-reached';
  return reason === 'not-reached' ? 'missed' : 'excused';
}

function order(key: string): number {
  if (/^\d{3}$/.test(key)) return Number(key);
  if (/^[1-5]XX$/.test(key)) return Number(key[0]) * 100 + 99.5;
  return 1000;
}
