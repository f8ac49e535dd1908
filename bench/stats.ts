/** min, median and max of a few values (the runs of one ratio or one measurement). */
export interface Spread {
  min: number;
  median: number;
  max: number;
  /** How many values were summarised. */
  n: number;
}

/**
 * The median of `values` (the mean of the two middle ones for an even count); NaN when empty.
 *
 * @example
 * median([3, 1, 2]); // 2
 */
export function median(values: readonly number[]): number {
  const finite = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (finite.length === 0) return Number.NaN;
  const mid = finite.length >> 1;
  return finite.length % 2 === 1
    ? (finite[mid] as number)
    : ((finite[mid - 1] as number) + (finite[mid] as number)) / 2;
}

/**
 * min/median/max of the finite values; undefined when there is none (nothing was measured).
 *
 * @example
 * spread([0.8, 0.7, 0.9]); // { min: 0.7, median: 0.8, max: 0.9, n: 3 }
 */
export function spread(values: readonly number[]): Spread | undefined {
  const finite = values.filter((v) => Number.isFinite(v));
  if (finite.length === 0) return undefined;
  return {
    min: Math.min(...finite),
    median: median(finite),
    max: Math.max(...finite),
    n: finite.length,
  };
}

/**
 * Ratios of paired runs: `subject[i] / baseline[i]`, skipping a pair where either is missing or
 * the baseline is zero.
 *
 * @example
 * pairedRatios([8, 9], [10, 10]); // [0.8, 0.9]
 */
export function pairedRatios(
  subject: readonly (number | undefined)[],
  baseline: readonly (number | undefined)[],
): number[] {
  const ratios: number[] = [];
  for (let i = 0; i < Math.min(subject.length, baseline.length); i++) {
    const s = subject[i];
    const b = baseline[i];
    if (s === undefined || b === undefined || !Number.isFinite(s) || !Number.isFinite(b) || b === 0)
      continue;
    ratios.push(s / b);
  }
  return ratios;
}
