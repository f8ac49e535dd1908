import type { Schema } from './effective-schema.js';
import { formatString, KNOWN_FORMATS } from './format-string.js';
import { GenerationError } from './generation-error.js';
import { patternStrings, type PatternBias } from './pattern-strings.js';
import { plainString, targetLength } from './plain-string.js';
import type { ValueContext } from './value-context.js';

/** A valid string of a string schema: of its pattern, else of its format, else plain text. */
export function generateString(s: Schema, ctx: ValueContext): string {
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? Infinity;
  if (min > max) throw new GenerationError('minLength above maxLength');
  if (s.pattern !== undefined) return patternString(s, ctx, min, max);
  if (s.format !== undefined) {
    const formatted = formatString(s.format, min, max, ctx);
    if (formatted !== undefined) return formatted;
    if (KNOWN_FORMATS.has(s.format)) {
      throw new GenerationError(`cannot make a ${s.format} of ${min}-${max} characters`);
    }
  }
  return plainString(targetLength(min, max, ctx), ctx);
}

function patternString(s: Schema, ctx: ValueContext, min: number, max: number): string {
  const bias: PatternBias = ctx.mode === 'low' ? 'low' : ctx.mode === 'high' ? 'high' : 'random';
  const sampled = patternStrings(s.pattern as string)?.sample(
    ctx.random,
    { minLength: min, maxLength: max },
    bias,
  );
  if (sampled !== undefined) return sampled;
  for (const candidate of [s.example, s.default]) {
    if (typeof candidate === 'string' && ctx.validator.check(s, candidate) !== false) {
      return candidate;
    }
  }
  throw new GenerationError(`cannot make a string for pattern ${s.pattern}`);
}
