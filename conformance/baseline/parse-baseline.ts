import {
  BASELINE_MARKER,
  BASELINE_VERSION,
  normalizeEntries,
  type Baseline,
  type BaselineEntry,
} from './baseline.js';

/** The text is no baseline this runner can read; the message says what it is instead. */
export class BaselineError extends Error {
  override name = 'BaselineError';
}

/**
 * Reads a baseline file's text, refusing with one line anything else: not JSON, JSON without
 * the marker (an ESLint suppressions file, a report), a version this runner does not know, an
 * entry that is not three strings. A wrong file must never pass for an empty baseline, or a
 * typo in a CI job would accept every failure or none without a word.
 *
 * @example
 * parseBaseline(await readFile('conform-baseline.json', 'utf8')).entries.length;
 */
export function parseBaseline(text: string): Baseline {
  if (text.trim() === '') throw new BaselineError('the file is empty');
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new BaselineError(`not JSON (${(error as Error).message})`);
  }
  if (!isObject(data) || !(BASELINE_MARKER in data))
    throw new BaselineError(`not an apikit conform baseline${foreignKind(data)}`);
  const version = data[BASELINE_MARKER];
  if (version !== BASELINE_VERSION)
    throw new BaselineError(
      typeof version === 'number' && version > BASELINE_VERSION
        ? `baseline version ${version} is newer than this apikit reads (${BASELINE_VERSION}): upgrade apikit`
        : `"${BASELINE_MARKER}" is ${JSON.stringify(version)}, expected ${BASELINE_VERSION}`,
    );
  const entries = data.entries;
  if (!Array.isArray(entries)) throw new BaselineError('"entries" is not a list');
  entries.forEach((entry, i) => {
    if (!isEntry(entry))
      throw new BaselineError(
        `entry ${i + 1} is not {"check", "operationId", "rule"} (three strings)`,
      );
  });
  return { entries: normalizeEntries(entries as BaselineEntry[]) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isEntry(value: unknown): value is BaselineEntry {
  return (
    isObject(value) &&
    ['check', 'operationId', 'rule'].every((key) => typeof value[key] === 'string' && value[key])
  );
}

/**
 * What a foreign file looks like, when it can be told: the files people confuse with a
 * baseline are ESLint's suppressions (`{file: {rule: {count}}}`) and apikit's own JSON report.
 */
function foreignKind(data: unknown): string {
  if (!isObject(data))
    return ` (the file holds ${data === null ? 'null' : Array.isArray(data) ? 'a list' : `a ${typeof data}`})`;
  if (isObject(data.summary) && Array.isArray(data.results))
    return ' (it is an apikit conform JSON report: write the baseline with --update-baseline)';
  const values = Object.values(data);
  if (
    values.length > 0 &&
    values.every(
      (rules) =>
        isObject(rules) &&
        Object.values(rules).every((r) => isObject(r) && typeof r.count === 'number'),
    )
  )
    return ' (it looks like an ESLint suppressions file)';
  return ` (no "${BASELINE_MARKER}" field)`;
}
