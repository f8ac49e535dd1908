import type { ProblemErrorEntry } from '../domain/api-problem.js';

/**
 * The most entries a 400 lists in `errors`; the rest are counted in `errorsOmitted`. The
 * contract's `ProblemError` and `x-apikit-http.errorsLimit` say the same (bound-errors.test.ts
 * keeps them equal). A hundred is more than any form shows at once and keeps a body of 8,000
 * unknown properties from being answered with 8,000 entries (decision 0106).
 */
export const MAX_PROBLEM_ERRORS = 100;

/**
 * The most characters (code points, as JSON Schema's `maxLength` counts them) of an entry's
 * `pointer` and of its `detail`: a pointer echoes a property name of the request, which may be
 * kilobytes long.
 */
export const MAX_ERROR_TEXT = 200;

/** The most characters of a problem's `detail`, which may quote a header or a path. */
export const MAX_PROBLEM_DETAIL = 500;

/** What a cut text ends with, so that nobody takes it for the whole. */
const CUT = '…';

/**
 * `text` at most `max` code points long: longer ones keep their first `max - 1` and end in `…`.
 * Cut by code points, so that no surrogate pair is split into lone halves.
 *
 * @example
 * boundText('#/' + 'a'.repeat(300), 200).length; // 200, ending in '…'
 */
export function boundText(text: string, max: number): string {
  // Cheap test first: a string of at most `max` UTF-16 units has at most `max` code points.
  if (text.length <= max) return text;
  const points = Array.from(text);
  return points.length <= max ? text : points.slice(0, max - 1).join('') + CUT;
}

/**
 * A 400's entries as its answer lists them: the first {@link MAX_PROBLEM_ERRORS} in the order
 * the checks found them, each text bounded, and how many were left out (0 when none).
 *
 * @example
 * boundErrors(entries).omitted; // entries.length - 100 when there are more than 100
 */
export function boundErrors(entries: readonly ProblemErrorEntry[]): {
  errors: ProblemErrorEntry[];
  omitted: number;
} {
  return {
    errors: entries.slice(0, MAX_PROBLEM_ERRORS).map((entry) => ({
      pointer: boundText(entry.pointer, MAX_ERROR_TEXT),
      detail: boundText(entry.detail, MAX_ERROR_TEXT),
    })),
    omitted: Math.max(0, entries.length - MAX_PROBLEM_ERRORS),
  };
}
