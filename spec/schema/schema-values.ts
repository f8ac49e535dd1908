import {
  effectiveSchema,
  schemaType,
  stableJson,
  travels,
  type Direction,
  type Schema,
} from './effective-schema.js';
import { patternStrings, type PatternBias } from './pattern-strings.js';
import type { SchemaValidator } from './schema-validator.js';
import type { SeededRandom } from './seeded-random.js';
import { MAX_EMAIL_LENGTH, sizedEmail } from './unique-emails.js';

/**
 * What kind of valid value to make:
 * - `minimal`: objects with their required properties only, typical values;
 * - `full`: every (writable) property, typical values, arrays with an item or two;
 * - `low` / `high`: every property, each string at minLength / maxLength, each number at
 *   minimum / maximum, arrays at minItems (at least one) / maxItems;
 * - `nulls`: every property, null wherever nullable;
 * - `random`: required properties plus a random choice of the others, random sizes.
 */
export type ValueMode = 'minimal' | 'full' | 'low' | 'high' | 'nulls' | 'random';

/** Raised when no valid value can be made (an unsupported pattern without an example...). */
export class GenerationError extends Error {}

/** The placeholder local part of generated addresses; made unique by `withUniqueEmails`. */
export const PLACEHOLDER_EMAIL = 'conform@example.com';

/** Longest string made on purpose; a longer maxLength is not met exactly. */
export const STRING_CAP = 4096;
/** Most items made on purpose for a `high` array; a larger maxItems is not met exactly. */
export const ITEMS_CAP = 100;
const MAX_DEPTH = 24;
const SOFT_DEPTH = 6;

const INT32: [number, number] = [-2147483648, 2147483647];
const SAFE: [number, number] = [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER];

interface Context {
  random: SeededRandom;
  mode: ValueMode;
  validator: SchemaValidator;
  direction: Direction;
}

/**
 * A valid value for a schema. By default the value is a request body: read-only properties
 * are never generated. With `direction: 'response'` (the mocks' `Prefer: dynamic=true`),
 * read-only properties are generated and write-only ones left out; pass a validator made for
 * the same direction. Emails are the placeholder address sized to the constraints (see
 * `withUniqueEmails`).
 *
 * @throws GenerationError when the schema admits nothing the generator can make.
 */
export function generateValue(
  schema: Schema,
  random: SeededRandom,
  mode: ValueMode,
  validator: SchemaValidator,
  direction: Direction = 'request',
): unknown {
  return generate(schema, { random, mode, validator, direction }, 0);
}

function generate(raw: Schema, ctx: Context, depth: number): unknown {
  if (depth > MAX_DEPTH) throw new GenerationError('the schema nests too deep');
  const s = effectiveSchema(raw);
  if (s.oneOf || s.anyOf) return generateBranch(raw, s, ctx, depth);
  const nullAllowed = s.nullable === true && (!s.enum || s.enum.includes(null));
  if (nullAllowed && depth > 0) {
    if (ctx.mode === 'nulls') return null;
    if (ctx.mode === 'random' && ctx.random.next() < 0.1) return null;
  }
  if (s.enum) return pickEnum(s, ctx);
  const type = schemaType(s);
  if (type !== 'object' && type !== 'array') {
    const example = preferredExample(s, ctx);
    if (example !== undefined) return example;
  }
  switch (type) {
    case 'string':
      return generateString(s, ctx);
    case 'integer':
      return generateNumber(s, ctx, true);
    case 'number':
      return generateNumber(s, ctx, false);
    case 'boolean':
      return ctx.mode === 'low' ? false : ctx.mode === 'high' ? true : ctx.random.next() < 0.5;
    case 'array':
      return generateArray(s, ctx, depth);
    case 'object':
      return generateObject(s, ctx, depth);
    default:
      return typeof s.default === 'string' ? s.default : 'value';
  }
}

/** The schema's example (or default) for typical values, when it is valid. */
function preferredExample(s: Schema, ctx: Context): unknown {
  const typical = ctx.mode === 'minimal' || ctx.mode === 'full' || ctx.mode === 'nulls';
  const sometimes = ctx.mode === 'random' && ctx.random.next() < 0.25;
  if (!typical && !sometimes) return undefined;
  for (const candidate of [s.example, s.default]) {
    if (candidate === undefined || candidate === null) continue;
    if (s.format === 'email') continue; // emails are made unique, examples are not
    if (ctx.validator.check(s, candidate) !== false) return structuredClone(candidate);
  }
  return undefined;
}

function pickEnum(s: Schema, ctx: Context): unknown {
  const values: unknown[] = (s.enum ?? []).filter((v) => v !== null);
  if (values.length === 0) {
    if (s.nullable) return null;
    throw new GenerationError('empty enum');
  }
  if (ctx.mode === 'low') return values[0];
  if (ctx.mode === 'high') return values[values.length - 1];
  if (ctx.mode !== 'random' && s.example !== undefined && values.includes(s.example)) {
    return s.example;
  }
  return structuredClone(ctx.random.pick(values));
}

function generateBranch(raw: Schema, s: Schema, ctx: Context, depth: number): unknown {
  const key = s.oneOf ? 'oneOf' : 'anyOf';
  const branches = [...(s[key] ?? [])];
  const rest: Schema = { ...s };
  delete rest[key];
  if (ctx.mode === 'high') branches.reverse();
  else if (ctx.mode !== 'low') shuffle(branches, ctx.random);
  if (s.nullable && ctx.mode === 'nulls' && depth > 0) return null;
  for (const branch of branches) {
    const merged = effectiveSchema({ allOf: [rest, branch] });
    let value: unknown;
    try {
      value = generate(merged, ctx, depth + 1);
    } catch (error) {
      if (error instanceof GenerationError) continue;
      throw error;
    }
    if (ctx.validator.check(raw, value) !== false) return value;
  }
  throw new GenerationError(`no ${key} branch could be generated`);
}

// ---------------------------------------------------------------------------------- strings

function generateString(s: Schema, ctx: Context): string {
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

function patternString(s: Schema, ctx: Context, min: number, max: number): string {
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

/** How many code points a plain string gets in this mode. */
function targetLength(min: number, max: number, ctx: Context): number {
  if (ctx.mode === 'low') return min;
  if (ctx.mode === 'high') {
    // At maxLength when there is one; an unbounded string has no edge worth megabytes.
    return Number.isFinite(max) ? Math.min(max, Math.max(min, STRING_CAP)) : Math.max(min, 64);
  }
  const from = Math.max(min, 1);
  const spread = ctx.mode === 'random' ? 24 : 10;
  return Math.max(min, Math.min(max, ctx.random.int(from, from + spread)));
}

const CONSONANTS = 'bcdfghjklmnprstvwz';
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

const KNOWN_FORMATS = new Set([
  'email',
  'date-time',
  'date',
  'time',
  'uri',
  'url',
  'uri-reference',
  'iri',
  'uuid',
  'hostname',
  'ipv4',
  'ipv6',
  'byte',
]);

/** A string of a known format within the length limits, `undefined` if none fits. */
function formatString(format: string, min: number, max: number, ctx: Context): string | undefined {
  const r = ctx.random;
  const fits = (v: string) => ([...v].length >= min && [...v].length <= max ? v : undefined);
  switch (format) {
    case 'email': {
      const natural = PLACEHOLDER_EMAIL.length;
      const wanted =
        ctx.mode === 'low'
          ? Math.max(min, 6)
          : ctx.mode === 'high'
            ? Math.min(max, Math.max(min, MAX_EMAIL_LENGTH))
            : Math.min(Math.max(natural, min), max);
      for (const [local, domain] of [
        ['conform', 'example.com'],
        ['c', 'ex.co'],
        ['c', 'e.co'],
      ] as const) {
        const email = sizedEmail(local, Math.max(wanted, `${local}@${domain}`.length), domain);
        if (email !== undefined && fits(email)) return email;
      }
      return undefined;
    }
    case 'date-time': {
      const d = randomDate(r);
      return fits(d.toISOString());
    }
    case 'date':
      return fits(randomDate(r).toISOString().slice(0, 10));
    case 'time':
      return fits(randomDate(r).toISOString().slice(11, 19) + 'Z');
    case 'uuid': {
      const hex = (n: number) =>
        Array.from({ length: n }, () => r.int(0, 15).toString(16)).join('');
      const variant = '89ab'[r.int(0, 3)] as string;
      return fits(`${hex(8)}-${hex(4)}-4${hex(3)}-${variant}${hex(3)}-${hex(12)}`);
    }
    case 'uri':
    case 'url':
    case 'iri':
    case 'uri-reference': {
      const base = 'https://example.com/';
      const wanted =
        ctx.mode === 'low'
          ? Math.max(min, base.length)
          : ctx.mode === 'high'
            ? Math.min(max, Math.max(min, Number.isFinite(max) ? 2048 : 64))
            : Math.min(max, Math.max(min, base.length + r.int(1, 12)));
      if (wanted < base.length) return fits('https://e.co');
      let path = '';
      while (path.length < wanted - base.length) path += CONSONANTS[r.int(0, 17)];
      return fits(base + path);
    }
    case 'hostname':
      return fits(`host-${r.int(1, 9999)}.example.com`);
    case 'ipv4':
      return fits(`192.0.2.${r.int(1, 254)}`);
    case 'ipv6':
      return fits(`2001:db8::${r.int(1, 0xffff).toString(16)}`);
    case 'byte': {
      const length = Math.ceil(targetLength(min, max, ctx) / 4) * 4;
      const text = Array.from({ length }, () => CONSONANTS[r.int(0, 17)]).join('');
      return fits(text);
    }
    default:
      return undefined;
  }
}

function randomDate(r: SeededRandom): Date {
  const start = Date.UTC(2020, 0, 1);
  const span = Date.UTC(2029, 11, 31) - start;
  return new Date(start + Math.floor((r.next() * span) / 1000) * 1000);
}

// ---------------------------------------------------------------------------------- numbers

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

function generateNumber(s: Schema, ctx: Context, integer: boolean): number {
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

// ----------------------------------------------------------------------------- collections

function generateArray(s: Schema, ctx: Context, depth: number): unknown[] {
  const min = s.minItems ?? 0;
  const max = s.maxItems ?? Infinity;
  if (min > max) throw new GenerationError('minItems above maxItems');
  const atLeastOne = Math.min(max, Math.max(min, 1));
  let count: number;
  if (depth > SOFT_DEPTH) count = min;
  else if (ctx.mode === 'minimal') count = min;
  else if (ctx.mode === 'low') count = atLeastOne;
  else if (ctx.mode === 'high') count = max <= ITEMS_CAP ? max : Math.max(min, 3);
  else if (ctx.mode === 'random') count = ctx.random.int(min, Math.min(max, min + 3));
  else count = Math.min(max, Math.max(min, ctx.random.int(1, 2)));
  const items = s.items ?? {};
  const out: unknown[] = [];
  const seen = new Set<string>();
  for (let attempt = 0; out.length < count && attempt < count + 20; attempt++) {
    // Repeats of a fixed mode would be equal: vary the later items when they must differ.
    const itemCtx = s.uniqueItems && attempt > 0 ? { ...ctx, mode: 'random' as const } : ctx;
    const item = generate(items, itemCtx, depth + 1);
    if (s.uniqueItems) {
      const key = stableJson(item);
      if (seen.has(key)) continue;
      seen.add(key);
    }
    out.push(item);
  }
  if (out.length < min) throw new GenerationError('not enough distinct items');
  return out;
}

function generateObject(s: Schema, ctx: Context, depth: number): Record<string, unknown> {
  const required = new Set(s.required ?? []);
  const present = Object.entries(s.properties ?? {}).filter(([, p]) => travels(p, ctx.direction));
  const shallow = depth > SOFT_DEPTH;
  let chosen = present.filter(([name]) => {
    if (required.has(name)) return true;
    if (shallow || ctx.mode === 'minimal') return false;
    if (ctx.mode === 'random') return ctx.random.next() < 0.5;
    return true;
  });
  const maxProperties = s.maxProperties ?? Infinity;
  while (chosen.length > maxProperties) {
    const optional = chosen.findLastIndex(([name]) => !required.has(name));
    if (optional < 0) break;
    chosen = chosen.filter((_, i) => i !== optional);
  }
  const out: Record<string, unknown> = {};
  for (const [name, property] of chosen) {
    try {
      out[name] = generate(property, ctx, depth + 1);
    } catch (error) {
      if (!(error instanceof GenerationError) || required.has(name)) throw error;
    }
  }
  // Required names without a property schema take the additionalProperties schema.
  const extra = typeof s.additionalProperties === 'object' ? s.additionalProperties : {};
  for (const name of required) {
    if (name in out || s.properties?.[name]) continue;
    out[name] = generate(extra, ctx, depth + 1);
  }
  const minProperties = s.minProperties ?? 0;
  for (const [name, property] of present) {
    if (Object.keys(out).length >= minProperties) break;
    if (!(name in out)) out[name] = generate(property, ctx, depth + 1);
  }
  for (let i = 1; Object.keys(out).length < minProperties; i++) {
    if (s.additionalProperties === false) throw new GenerationError('minProperties unreachable');
    out[`extra${i}`] = generate(extra, ctx, depth + 1);
  }
  return out;
}

function shuffle<T>(items: T[], random: SeededRandom): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [items[i], items[j]] = [items[j] as T, items[i] as T];
  }
}
