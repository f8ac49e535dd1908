import type { Schema } from './effective-schema.js';
import { GenerationError } from './generation-error.js';
import { numericRange, roundTo } from './numeric-range.js';
import type { ValueContext } from './value-context.js';

/** A valid number of a numeric schema: at an edge in `low`/`high` mode, typical otherwise. */
export function generateNumber(s: Schema, ctx: ValueContext, integer: boolean): number {
  const range = numericRange(s, integer);
  if (!range) throw new GenerationError('no number satisfies minimum and maximum');
  const { lo, hi, explicitLo, explicitHi, step } = range;
  if (ctx.mode === 'low' && explicitLo) return lo;
  if (ctx.mode === 'high' && explicitHi) return hi;
  // Typical values sit just above the minimum (small ids, ages), below the maximum, or near 0.
  const wide = ctx.mode === 'random' && ctx.random.next() < 0.3;
  const offset = ctx.random.int(0, wide ? 10000 : 9);
  const unit = step ?? 1;
  let value: number;
  if (explicitLo || !explicitHi) value = (explicitLo ? lo : Math.max(lo, 0)) + offset * unit;
  else value = hi - offset * unit;
  if (!integer && step === undefined) value += 0.5;
  value = Math.min(hi, Math.max(lo, value));
  if (step !== undefined) value = roundTo(Math.round(value / step) * step, step);
  if (value < lo || value > hi) value = lo;
  return value;
}
