import type { Schema } from '../../spec/schema/effective-schema.js';
import { patternMismatch } from '../../spec/schema/pattern-strings.js';
import {
  badFormatString,
  MAX_NEGATIVE_LENGTH,
  notInEnum,
  stringOfLength,
  type Violation,
} from './negative-values.js';
import type { GeneratorDeps } from './positive-bodies.js';

/**
 * Strings that break a string schema (not in the enum, too short or long, bad format or
 * pattern); `what` says why, without the value.
 */
export function stringViolations(s: Schema, deps: GeneratorDeps): Violation[] {
  const out: Violation[] = [];
  if (s.enum) {
    const bad = notInEnum(s);
    if (bad) out.push({ value: String(bad.value), what: bad.what });
    return out;
  }
  const min = s.minLength ?? 0;
  if (min > 1) {
    const short = stringOfLength(s, min - 1, deps);
    if (short !== undefined) out.push({ value: short, what: `shorter than minLength ${min}` });
  }
  if (s.maxLength !== undefined && s.maxLength < MAX_NEGATIVE_LENGTH) {
    const long = stringOfLength(s, s.maxLength + 1, deps);
    if (long !== undefined) {
      out.push({
        value: long,
        what: `longer than maxLength ${s.maxLength} (${s.maxLength + 1} characters)`,
      });
    }
  }
  const format = badFormatString(s);
  if (format) out.push({ value: format.value, what: format.what });
  if (s.pattern !== undefined) {
    const bad = patternMismatch(s.pattern, s);
    if (bad !== undefined) out.push({ value: bad, what: `does not match ${s.pattern}` });
  }
  return out;
}
