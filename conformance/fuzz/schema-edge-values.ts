import { effectiveSchema, schemaType, type Schema } from '../../spec/schema/effective-schema.js';
import type { SeededRandom } from '../../spec/schema/seeded-random.js';
import type { FuzzValue } from './fuzz-values.js';

const INT32_MAX = 2147483647;

/**
 * Values at and just past the schema's edges: minimum and maximum and one beyond, int32 and
 * 2^53 limits, empty and maximal strings (in astral characters too: code points versus UTF-16
 * units), enum values in another case, empty and over-full arrays.
 */
export function boundaryValue(schema: Schema, random: SeededRandom): FuzzValue {
  const s = effectiveSchema(schema);
  const type = schemaType(s);
  const pick = (items: [unknown, string][]): FuzzValue => {
    const [value, what] = random.pick(items);
    return { family: 'boundary', what, value };
  };
  if (s.enum && s.enum.length > 0) {
    const v = random.pick(s.enum);
    const text = typeof v === 'string' ? v : String(v);
    return pick([
      [v, `the enum value ${JSON.stringify(v)}`],
      [text.toLowerCase(), `an enum value in lower case`],
      [` ${text}`, 'an enum value with a leading space'],
      [`${text}\u0000`, 'an enum value with a trailing NUL'],
    ]);
  }
  if (type === 'integer' || type === 'number') {
    const min = typeof s.minimum === 'number' ? s.minimum : undefined;
    const max = typeof s.maximum === 'number' ? s.maximum : undefined;
    const items: [unknown, string][] = [
      [0, 'zero'],
      [-1, 'minus one'],
      [INT32_MAX, 'int32 max'],
      [INT32_MAX + 1, 'int32 max + 1'],
      [-INT32_MAX - 2, 'int32 min - 1'],
      [Number.MAX_SAFE_INTEGER, '2^53 - 1'],
      [Number.MAX_SAFE_INTEGER + 1, '2^53'],
      [Number.MAX_VALUE, 'the largest double'],
      [Number.MIN_VALUE, 'the smallest positive double'],
      [0.5, 'one half'],
    ];
    if (min !== undefined) items.push([min, `the minimum ${min}`], [min - 1, `minimum - 1`]);
    if (max !== undefined) items.push([max, `the maximum ${max}`], [max + 1, `maximum + 1`]);
    return pick(items);
  }
  if (type === 'string') {
    const min = s.minLength ?? 0;
    const max = Math.min(s.maxLength ?? 256, 4096);
    return pick([
      ['', 'the empty string'],
      [' ', 'a single space'],
      ['a'.repeat(Math.max(0, min - 1)), `minLength - 1 (${Math.max(0, min - 1)})`],
      ['b'.repeat(Math.max(min, 1)), `minLength (${Math.max(min, 1)})`],
      ['c'.repeat(max), `maxLength (${max})`],
      ['d'.repeat(max + 1), `maxLength + 1 (${max + 1})`],
      ['😀'.repeat(max), `maxLength astral code points (${max}, twice as many UTF-16 units)`],
      ['é'.repeat(max), `maxLength two-byte characters (${max})`],
      [`${'e'.repeat(64)}@example.com`, 'an email whose local part is 64 characters'],
      [`${'e'.repeat(65)}@example.com`, 'an email whose local part is 65 characters'],
      ['UPPER@EXAMPLE.COM', 'an upper-case email'],
      ['"quoted local"@example.com', 'an email with a quoted local part'],
    ]);
  }
  if (type === 'array') {
    const max = Math.min(s.maxItems ?? 10, 1000);
    return pick([
      [[], 'an empty array'],
      [Array.from({ length: max + 1 }, () => 1), `maxItems + 1 items (${max + 1})`],
      [[null], 'an array holding null'],
    ]);
  }
  if (type === 'boolean')
    return pick([
      [true, 'true'],
      [false, 'false'],
    ]);
  return pick([
    [{}, 'an empty object'],
    [null, 'null'],
  ]);
}

const JSON_KINDS: [string, unknown, string][] = [
  ['null', null, 'null'],
  ['boolean', true, 'true'],
  ['boolean', false, 'false'],
  ['integer', 0, 'the number 0'],
  ['number', 1.5, 'the number 1.5'],
  ['string', '', 'the empty string'],
  ['string', '1', 'the string "1"'],
  ['string', 'true', 'the string "true"'],
  ['string', 'null', 'the string "null"'],
  ['array', [], 'an empty array'],
  ['array', [1, 'a', null], 'a mixed array'],
  ['object', {}, 'an empty object'],
  ['object', { a: 1 }, 'an object'],
];

/** A JSON value of another type than the schema's. */
export function wrongTypeValue(schema: Schema, random: SeededRandom): FuzzValue {
  const type = schemaType(effectiveSchema(schema));
  const same = (kind: string) =>
    kind === type ||
    (type === 'number' && kind === 'integer') ||
    (type === 'integer' && kind === 'number');
  const others = JSON_KINDS.filter(([kind]) => !same(kind));
  const [, value, what] = random.pick(others);
  return { family: 'wrong-type', what: `${what} where ${type ?? 'any value'} is due`, value };
}
