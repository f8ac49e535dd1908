/**
 * A baseline: the failures a team has accepted for now, so that `apikit conform --baseline`
 * fails only on new ones (decision 0097). As ESLint's bulk suppressions, it is a file in the
 * repository, written by the runner (`--update-baseline`) and read back on every run.
 */

/** The field that says a JSON file is an apikit conform baseline; its value is the version. */
export const BASELINE_MARKER = 'apikitConformBaseline';
/** The version this runner writes and reads. */
export const BASELINE_VERSION = 1;

/**
 * One accepted failure: which check, on which operation, broke which rule. None of the three
 * depends on the seed, the target's ids, ports or clock (`failureFingerprint`), so two runs
 * against the same target agree on them.
 */
export interface BaselineEntry {
  check: string;
  /** The operation, or `*` for a failure of the whole run. */
  operationId: string;
  /** What the contract expects, with the values that change from run to run blanked out. */
  rule: string;
}

/** The accepted failures, sorted and without duplicates (`normalizeEntries`). */
export interface Baseline {
  entries: BaselineEntry[];
}

/** What a baseline made of a run: the counts are of entries, a failure repeated counts once. */
export interface BaselineSummary {
  /** Failures not in the baseline: these fail the run. */
  new: number;
  /** Failures in the baseline: shown, marked, not counted toward the exit code. */
  known: number;
  /** Baseline entries whose check ran on their operation and no longer failed that way. */
  fixed: number;
  /** Baseline entries this run did not judge (narrowed, skipped, or interrupted). */
  notRun: number;
  entries: {
    new: BaselineEntry[];
    known: BaselineEntry[];
    fixed: BaselineEntry[];
    notRun: BaselineEntry[];
  };
}

/** `check`, `operationId`, `rule` in one string: the identity of an entry. */
export function entryKey(entry: BaselineEntry): string {
  return `${entry.check}\u0000${entry.operationId}\u0000${entry.rule}`;
}

/** Sorted by check, operation and rule (code point order, not locale), duplicates dropped. */
export function normalizeEntries(entries: Iterable<BaselineEntry>): BaselineEntry[] {
  const unique = new Map<string, BaselineEntry>();
  for (const { check, operationId, rule } of entries)
    unique.set(entryKey({ check, operationId, rule }), { check, operationId, rule });
  return [...unique.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, e]) => e);
}

/**
 * The baseline as its file: sorted entries, one field a line, so a diff shows what was
 * accepted or fixed and two runs against the same target write the same bytes.
 *
 * @example
 * await writeFile('conform-baseline.json', renderBaseline({ entries }));
 */
export function renderBaseline(baseline: Baseline): string {
  const file = {
    [BASELINE_MARKER]: BASELINE_VERSION,
    entries: normalizeEntries(baseline.entries),
  };
  return JSON.stringify(file, null, 2) + '\n';
}
