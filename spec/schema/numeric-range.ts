import type { Schema } from './effective-schema.js';

const INT32: [number, number] = [-2147483648, 2147483647];
const SAFE: [number, number] = [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];

/** The valid range of a numeric schema (exclusive bounds and multipleOf applied). */
export interface NumericRange {
  lo: number;
  hi: number;
  /** Whether lo / hi come from the schema (minimum, maximum or an int32 format). */
  explicitLo: boolean;
  explicitHi: boolean;
  step: number | undefined;
}

/** The range of valid values of a numeric schema, or `undefined` if it is empty. */
export function numericRange(s: Schema, integer: boolean): NumericRange | undefined {
  const formatRange = s.format === 'int32' ? INT32 : integer ? SAFE : [-1e15, 1e15];
  let lo = formatRange[0];
  let hi = formatRange[1];
  let explicitLo = s.format === 'int32';
  let explicitHi = s.format === 'int32';
  // The smallest value above an exclusive bound, and the largest below one.
  const above = (b: number) =>
    integer ? Math.floor(b) + 1 : b + Math.max(1e-6, Math.abs(b) * 1e-9);
  const below = (b: number) =>
    integer ? Math.ceil(b) - 1 : b - Math.max(1e-6, Math.abs(b) * 1e-9);
  if (typeof s.minimum === 'number') {
    const bound = s.exclusiveMinimum === true ? above(s.minimum) : s.minimum;
    if (bound >= lo) [lo, explicitLo] = [bound, true];
  }
  if (typeof s.exclusiveMinimum === 'number' && above(s.exclusiveMinimum) >= lo) {
    [lo, explicitLo] = [above(s.exclusiveMinimum), true];
  }
  if (typeof s.maximum === 'number') {
    const bound = s.exclusiveMaximum === true ? below(s.maximum) : s.maximum;
    if (bound <= hi) [hi, explicitHi] = [bound, true];
  }
  if (typeof s.exclusiveMaximum === 'number' && below(s.exclusiveMaximum) <= hi) {
    [hi, explicitHi] = [below(s.exclusiveMaximum), true];
  }
  if (integer) [lo, hi] = [Math.ceil(lo), Math.floor(hi)];
  const step = typeof s.multipleOf === 'number' && s.multipleOf > 0 ? s.multipleOf : undefined;
  if (step !== undefined) {
    lo = roundTo(Math.ceil(lo / step) * step, step);
    hi = roundTo(Math.floor(hi / step) * step, step);
  }
  return lo <= hi ? { lo, hi, explicitLo, explicitHi, step } : undefined;
}

/** `value` rounded to the decimals of `step` (so 3 * 0.1 is 0.3). */
export function roundTo(value: number, step: number): number {
  const decimals = (String(step).split('.')[1] ?? '').length;
  return decimals === 0 ? value : Number(value.toFixed(decimals));
}
