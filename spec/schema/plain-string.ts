import type { SeededRandom } from './seeded-random.js';
import type { ValueContext, ValueMode } from './value-context.js';

/** Longest string made on purpose; a longer maxLength is not met exactly. */
export const STRING_CAP = 4096;

/** How many code points a plain string gets in this mode. */
export function targetLength(min: number, max: number, ctx: ValueContext): number {
  if (ctx.mode === 'low') return min;
  if (ctx.mode === 'high') {
    // At maxLength when there is one; an unbounded string has no edge worth megabytes.
    return Number.isFinite(max) ? Math.min(max, Math.max(min, STRING_CAP)) : Math.max(min, 64);
  }
  const from = Math.max(min, 1);
  const spread = ctx.mode === 'random' ? 24 : 10;
  return Math.max(min, Math.min(max, ctx.random.int(from, from + spread)));
}

/** Letters of readable made-up words. */
export const CONSONANTS = 'bcdfghjklmnprstvwz';
const VOWELS = 'aeiou';

/**
 * A readable string of exactly `length` code points; at maxLength it ends in non-ASCII
 * characters (`é` and the astral `𝄞`) so that code points, not UTF-16 units or bytes, count.
 */
export function plainString(
  length: number,
  ctx: { random: SeededRandom; mode: ValueMode },
): string {
  const tail = ctx.mode === 'high' && length >= 4 ? ['é', '𝄞'] : [];
  const letters: string[] = [];
  for (let i = 0; letters.length < length - tail.length; i++) {
    if (i > 0 && i % 7 === 6 && letters.length < length - tail.length - 1) letters.push(' ');
    else {
      const pool = i % 2 === 0 ? CONSONANTS : VOWELS;
      const c = pool[ctx.random.int(0, pool.length - 1)] as string;
      letters.push(letters.length === 0 ? c.toUpperCase() : c);
    }
  }
  const out = [...letters, ...tail];
  if (out[out.length - 1] === ' ') out[out.length - 1] = 'a';
  return out.join('');
}
