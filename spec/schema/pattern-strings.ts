import { expandPattern } from './expand-pattern.js';
import { parsePattern } from './parse-pattern.js';
import type { PatternNode } from './pattern-node.js';
import { renderPattern, type PatternBias } from './render-pattern.js';
import type { SeededRandom } from './seeded-random.js';

export type { PatternBias } from './render-pattern.js';

/** Strings that match a regular expression (`pattern`, ECMA-262 with the `u` flag, as ajv). */
export interface PatternStrings {
  /** Whether a string matches the pattern (a search, not a full match, as JSON Schema says). */
  matches(value: string): boolean;
  /**
   * A matching string whose length in code points is within [minLength, maxLength], or
   * `undefined` when none was found in a bounded number of tries.
   */
  sample(random: SeededRandom, limits?: LengthLimits, bias?: PatternBias): string | undefined;
  /**
   * Up to `limit` distinct matching strings that walk the pattern's choices systematically:
   * every branch of an alternation, every member of a small class, optional parts with and
   * without (unbounded repeats at their minimum and one more). So `^(id|email)(,(asc|desc))?$`
   * yields all six sort keys, where sampling might never draw `email,desc`.
   */
  enumerate(limit: number): string[];
}

export interface LengthLimits {
  minLength?: number;
  maxLength?: number;
}

const TRIES = 40;

/**
 * A generator for the strings of a pattern, or `undefined` when the pattern uses what it does
 * not support (lookaround, backreferences, `\b`, Unicode property escapes) or is not a valid
 * regular expression. Supported: literals and escapes, classes (`[a-z_]`, `[^,]`, `\d\w\s`),
 * `.`, groups (capturing, `(?:)`, named), alternation, `? * + {n} {n,} {n,m}` and anchors.
 * Every sample is checked against the real regular expression.
 *
 * @example
 * patternStrings('^(id|name)(,(asc|desc))?$')?.sample(random); // e.g. 'name,desc'
 */
export function patternStrings(pattern: string): PatternStrings | undefined {
  const regex = toRegExp(pattern);
  if (!regex) return undefined;
  let tree: PatternNode;
  try {
    tree = parsePattern(pattern);
  } catch {
    return undefined;
  }
  const matches = (value: string) => regex.test(value);
  return {
    matches,
    enumerate(limit) {
      return [...new Set(expandPattern(tree, limit))].filter(matches).slice(0, limit);
    },
    sample(random, limits = {}, bias = 'random') {
      const min = limits.minLength ?? 0;
      const max = limits.maxLength ?? Infinity;
      let best: string | undefined;
      for (let i = 0; i < TRIES; i++) {
        const candidate = renderPattern(tree, random, i < TRIES / 2 ? bias : 'random');
        const length = [...candidate].length;
        if (length < min || length > max || !matches(candidate)) continue;
        if (bias === 'random') return candidate;
        if (best === undefined) best = candidate;
        else if (bias === 'low' ? length < [...best].length : length > [...best].length) {
          best = candidate;
        }
      }
      return best;
    },
  };
}

/**
 * A string that does NOT match the pattern and whose length is within the limits (so that
 * only the pattern is broken), preferring ones that look like a plausible mistake.
 */
export function patternMismatch(
  pattern: string,
  limits: LengthLimits = {},
  valid?: string,
): string | undefined {
  const regex = toRegExp(pattern);
  if (!regex) return undefined;
  const min = limits.minLength ?? 0;
  const max = limits.maxLength ?? Infinity;
  const candidates = [
    'unknownValue',
    ...(valid !== undefined ? [`${valid}!`, `!${valid}`, `${valid} `] : []),
    'zzz',
    '!',
    '~',
    '-',
    ' ',
    '0',
    'a',
    'A',
    '',
    '!'.repeat(Math.max(min, 1)),
    'x'.repeat(Math.max(min, 1)),
  ];
  return candidates.find((c) => {
    const length = [...c].length;
    return length >= min && length <= max && !regex.test(c);
  });
}

function toRegExp(pattern: string): RegExp | undefined {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    try {
      return new RegExp(pattern);
    } catch {
      return undefined;
    }
  }
}
