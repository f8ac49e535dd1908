import type { ValidationConvention } from './case-generator.js';
import { schemaType, type Schema } from '../../spec/schema/effective-schema.js';
import type { GeneratorDeps } from './positive-bodies.js';
import { numericRange } from '../../spec/schema/numeric-range.js';
import { GenerationError, generateValue } from '../../spec/schema/schema-values.js';

/** One invalid value and what is wrong with it, in words. */
export interface Violation {
  value: unknown;
  /** e.g. "below minimum 18 (17)". */
  what: string;
  /** Set when the value breaks an API convention rather than the schema. */
  convention?: ValidationConvention;
}

/** Strings longer than this are not made on purpose (the body would hit size limits). */
export const MAX_NEGATIVE_LENGTH = 50_000;

const INT32_MAX = 2147483647;
const INT32_MIN = -2147483648;

/**
 * A string of exactly `length` code points that keeps the schema's other rules (format,
 * pattern), so that only its length is wrong; `undefined` if none can be made.
 */
export function stringOfLength(s: Schema, length: number, deps: GeneratorDeps): string | undefined {
  if (length < 0 || length > MAX_NEGATIVE_LENGTH) return undefined;
  if (s.format === 'email') {
    return length === 0
      ? undefined
      : deps.emails.next({ length, maxLength: length, minLength: length });
  }
  const exact: Schema = { ...s, minLength: length, maxLength: length };
  delete exact.enum;
  delete exact.example;
  delete exact.default;
  try {
    const value = generateValue(exact, deps.random.fork(`length:${length}`), 'low', deps.validator);
    return typeof value === 'string' && [...value].length === length ? value : undefined;
  } catch (error) {
    if (error instanceof GenerationError) return undefined;
    throw error;
  }
}

const BAD_FORMATS: Record<string, [string, string]> = {
  email: ['not-an-email', 'without @'],
  'date-time': ['2026-01-15 09:30:00', 'no T separator, no time zone'],
  date: ['15/01/2026', 'not YYYY-MM-DD'],
  time: ['9:30', 'not HH:MM:SS with a zone'],
  uri: ['not a uri', 'no scheme'],
  url: ['not a url', 'no scheme'],
  uuid: ['not-a-uuid', 'not 8-4-4-4-12 hex digits'],
  hostname: ['-bad-host-', 'labels may not start or end with -'],
  ipv4: ['256.1.1.1', 'an octet above 255'],
  ipv6: ['2001:db8:::1', 'three colons'],
  byte: ['***', 'not base64'],
};

/** A string that breaks a known `format` but fits the length limits. */
export function badFormatString(s: Schema): Violation | undefined {
  const bad = s.format !== undefined ? BAD_FORMATS[s.format] : undefined;
  if (!bad) return undefined;
  const length = [...bad[0]].length;
  if (length < (s.minLength ?? 0) || length > (s.maxLength ?? Infinity)) return undefined;
  return { value: bad[0], what: `not a valid ${s.format} (${bad[1]})` };
}

/** A value of the schema's type that is not among its `enum` values. */
export function notInEnum(s: Schema): Violation | undefined {
  const values = s.enum ?? [];
  const type = schemaType(s);
  const candidates: unknown[] = [];
  if (type === 'integer' || type === 'number') {
    const numbers = values.filter((v): v is number => typeof v === 'number');
    candidates.push(Math.max(0, ...numbers) + 1, -1);
  } else if (type === 'boolean') {
    candidates.push(true, false);
  } else {
    const first = values.find((v): v is string => typeof v === 'string');
    // A case variant first (enum values are case-sensitive), then a plainly unknown one.
    if (first !== undefined) {
      candidates.push(first === first.toLowerCase() ? first.toUpperCase() : first.toLowerCase());
    }
    candidates.push('unknownValue', 'UNKNOWN_VALUE', 'zzz');
  }
  const value = candidates.find((c) => !values.includes(c));
  if (value === undefined) return undefined;
  return { value, what: `not one of ${values.map((v) => JSON.stringify(v)).join(', ')}` };
}

/** A value of another JSON type than the schema's. */
export function wrongTypeValue(type: string, valid: unknown): unknown {
  switch (type) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return typeof valid === 'number' ? String(valid) : '1';
    case 'boolean':
      return 'true';
    case 'array':
      return 'not-an-array';
    default:
      return 'not-an-object';
  }
}

/** Words for a JSON value: `the string "45"`, `an array`, `null`. */
export function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return `the string ${JSON.stringify(value)}`;
  if (typeof value === 'object') return 'an object';
  return `the ${typeof value} ${JSON.stringify(value)}`;
}

/** `an integer`, `a string`... */
export function withArticle(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

/**
 * Numbers that break exactly one numeric rule: below the minimum, above the maximum, beyond
 * int32 (when the maximum does not already say so), a fraction for an integer, not a
 * multiple. Only values a JSON number can carry exactly are returned.
 */
export function numberViolations(s: Schema, integer: boolean, valid: unknown): Violation[] {
  const range = numericRange(s, integer);
  if (!range) return [];
  const { lo, hi, step } = range;
  const v = typeof valid === 'number' && valid >= lo && valid <= hi ? valid : lo;
  const out: Violation[] = [];
  const isMultiple = (n: number) => step === undefined || Number.isInteger(n / step);
  const minimum = typeof s.minimum === 'number' ? s.minimum : undefined;
  const maximum = typeof s.maximum === 'number' ? s.maximum : undefined;
  if (minimum !== undefined || typeof s.exclusiveMinimum === 'number') {
    const exclusive = s.exclusiveMinimum === true || typeof s.exclusiveMinimum === 'number';
    const bound = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : (minimum as number);
    const candidates = [
      exclusive ? bound : undefined,
      integer ? Math.ceil(bound) - 1 : bound - 1,
      step !== undefined ? lo - step : undefined,
    ];
    const bad = candidates.find((c) => c !== undefined && c < lo && c !== lo && isMultiple(c));
    if (bad !== undefined && Number.isFinite(bad)) {
      const word = exclusive
        ? `not above the exclusive minimum ${bound}`
        : `below minimum ${bound}`;
      out.push({ value: bad, what: `${word} (${bad})` });
    }
  }
  if (maximum !== undefined || typeof s.exclusiveMaximum === 'number') {
    const exclusive = s.exclusiveMaximum === true || typeof s.exclusiveMaximum === 'number';
    const bound = typeof s.exclusiveMaximum === 'number' ? s.exclusiveMaximum : (maximum as number);
    const candidates = [
      exclusive ? bound : undefined,
      integer ? Math.floor(bound) + 1 : bound + 1,
      step !== undefined ? hi + step : undefined,
    ];
    const bad = candidates.find((c) => c !== undefined && c > hi && isMultiple(c));
    if (bad !== undefined && Number.isFinite(bad)) {
      const word = exclusive
        ? `not below the exclusive maximum ${bound}`
        : `above maximum ${bound}`;
      out.push({ value: bad, what: `${word} (${bad})` });
    }
  }
  if (s.format === 'int32' && integer) {
    if (maximum === undefined || maximum > INT32_MAX) {
      out.push({ value: INT32_MAX + 1, what: `beyond the int32 range (${INT32_MAX + 1})` });
    }
    if (minimum === undefined || minimum < INT32_MIN) {
      out.push({ value: INT32_MIN - 1, what: `beyond the int32 range (${INT32_MIN - 1})` });
    }
  }
  if (integer) {
    const fraction = v + 0.5 <= hi ? v + 0.5 : v - 0.5;
    if (fraction >= lo && Number.isSafeInteger(Math.trunc(fraction))) {
      out.push({ value: fraction, what: `not an integer (${fraction})` });
    }
  }
  if (step !== undefined && !(integer && step === 1)) {
    const off = integer ? (step > 1 ? v + 1 : undefined) : v + step / 2;
    if (off !== undefined && off <= hi && !isMultiple(off)) {
      out.push({ value: off, what: `not a multiple of ${step} (${off})` });
    }
  }
  return out;
}
