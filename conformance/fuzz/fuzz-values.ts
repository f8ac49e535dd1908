import type { Schema } from '../../spec/schema/effective-schema.js';
import type { SeededRandom } from '../../spec/schema/seeded-random.js';
import { boundaryValue, wrongTypeValue } from './schema-edge-values.js';
import { GIANT_NUMBERS, HEADER_INJECTIONS, PROTOTYPE_KEYS, UNICODE_EDGES } from './fuzz-strings.js';

/** The ways the fuzzer breaks a value; each family is one kind of trouble for a parser. */
export type FuzzFamily =
  | 'boundary'
  | 'wrong-type'
  | 'huge'
  | 'nested'
  | 'unicode'
  | 'prototype-key'
  | 'giant-integer'
  | 'header-injection';

export const FUZZ_FAMILIES: readonly FuzzFamily[] = [
  'boundary',
  'wrong-type',
  'huge',
  'nested',
  'unicode',
  'prototype-key',
  'giant-integer',
  'header-injection',
];

/**
 * One fuzz value. `json` holds JSON text when no JS value serializes to it (a number beyond a
 * double, nesting too deep to build, an own `__proto__` key); otherwise `value` is the value.
 */
export interface FuzzValue {
  family: FuzzFamily;
  /** In words, for the report: "a lone high surrogate", "depth 20000 arrays". */
  what: string;
  value?: unknown;
  json?: string;
}

/** Huge values stay below this many characters of JSON (some above 100 KiB, to meet a 413). */
export const HUGE_LIMIT = 120 * 1024;
/** Deepest nesting made, in levels. */
export const MAX_DEPTH = 50_000;

/** The value as text, for a path segment, a query value or a header. */
export function fuzzText(v: FuzzValue): string {
  if (v.json !== undefined) return v.json;
  return typeof v.value === 'string' ? v.value : JSON.stringify(v.value);
}

/** The value as JSON text, for a body. */
export function fuzzJson(v: FuzzValue): string {
  return v.json ?? JSON.stringify(v.value);
}

/**
 * Big values are the same few for every case: made once, so that a long fuzz run spends its
 * time sending requests, not building strings.
 */
const made = new Map<string, string>();
function once(key: string, make: () => string): string {
  let text = made.get(key);
  if (text === undefined) made.set(key, (text = make()));
  return text;
}

/** A very long string, a very long array or an object with very many keys (bounded). */
export function hugeValue(random: SeededRandom): FuzzValue {
  const size = random.pick([4_000, 20_000, 60_000, 101 * 1024]);
  switch (random.int(0, 2)) {
    case 0: {
      // Characters with their width in JSON text, so that the text stays under HUGE_LIMIT.
      const [ch, width, name] = random.pick([
        ['x', 1, 'x'],
        ['é', 1, 'é'],
        ['\u0000', 6, 'NUL'],
        ['😀', 2, 'emoji'],
      ] as const);
      const n = Math.floor(size / width);
      const value = once(`s${ch}${n}`, () => ch.repeat(n));
      return { family: 'huge', what: `a string of ${n} ${name} characters`, value };
    }
    case 1: {
      const n = Math.floor(size / 2);
      const json = once(`a${n}`, () => `[${'1,'.repeat(n - 1)}1]`);
      return { family: 'huge', what: `an array of ${n} numbers`, json };
    }
    default: {
      const n = Math.floor(size / 12);
      const json = once(`o${n}`, () => {
        const keys = Array.from({ length: n }, (_, i) => `"k${i}":${i}`);
        return `{${keys.join(',')}}`;
      });
      return { family: 'huge', what: `an object of ${n} keys`, json };
    }
  }
}

/** Arrays or objects nested deeper than any recursive parser or validator should go. */
export function nestedValue(random: SeededRandom): FuzzValue {
  const depth = random.pick([64, 1_000, 10_000, 20_000, MAX_DEPTH]);
  if (random.next() < 0.5) {
    return {
      family: 'nested',
      what: `arrays nested ${depth} deep`,
      json: once(`[${depth}`, () => '['.repeat(depth) + ']'.repeat(depth)),
    };
  }
  // `{"a":` and `}` are 6 characters a level: keep object nesting under the huge limit.
  const levels = Math.min(depth, Math.floor((HUGE_LIMIT - 1) / 6));
  return {
    family: 'nested',
    what: `objects nested ${levels} deep`,
    json: once(`{${levels}`, () => '{"a":'.repeat(levels) + '1' + '}'.repeat(levels)),
  };
}

/** A Unicode edge case, alone or inside ordinary text. */
export function unicodeValue(random: SeededRandom): FuzzValue {
  const edge = random.pick(UNICODE_EDGES);
  const value = random.next() < 0.5 ? edge.text : `Ada ${edge.text} Lovelace`;
  return { family: 'unicode', what: edge.what, value };
}

/**
 * A prototype-polluting key: as a string value, or as an own key of an object (JSON text: a JS
 * object literal would set the prototype instead of a key).
 */
export function prototypeValue(random: SeededRandom): FuzzValue {
  const key = random.pick(PROTOTYPE_KEYS);
  switch (random.int(0, 2)) {
    case 0:
      return { family: 'prototype-key', what: `the string ${key}`, value: key };
    case 1:
      return {
        family: 'prototype-key',
        what: `an object with the own key ${key}`,
        json: `{${JSON.stringify(key)}:{"polluted":true,"status":"ACTIVE","role":"ADMIN"}}`,
      };
    default:
      return {
        family: 'prototype-key',
        what: 'constructor.prototype pollution',
        json: '{"constructor":{"prototype":{"polluted":true}}}',
      };
  }
}

/** A number beyond what a double carries exactly: 2^53 + 1, 2^64, 1e309, 400 digits, -0. */
export function giantIntegerValue(random: SeededRandom): FuzzValue {
  const n = random.pick(GIANT_NUMBERS);
  return { family: 'giant-integer', what: n.what, json: n.text };
}

/** A header-splitting or Link-breaking string (it names INJECTED_HEADER). */
export function headerInjectionValue(random: SeededRandom): FuzzValue {
  const attempt = random.pick(HEADER_INJECTIONS);
  return { family: 'header-injection', what: attempt.what, value: attempt.text };
}

/**
 * A value of the named family for a place whose schema is `schema`.
 *
 * @example
 * fuzzValue('unicode', {}, seededRandom(1)); // { family: 'unicode', what: 'a lone NUL', value: '\u0000' }
 */
export function fuzzValue(family: FuzzFamily, schema: Schema, random: SeededRandom): FuzzValue {
  switch (family) {
    case 'boundary':
      return boundaryValue(schema, random);
    case 'wrong-type':
      return wrongTypeValue(schema, random);
    case 'huge':
      return hugeValue(random);
    case 'nested':
      return nestedValue(random);
    case 'unicode':
      return unicodeValue(random);
    case 'prototype-key':
      return prototypeValue(random);
    case 'giant-integer':
      return giantIntegerValue(random);
    case 'header-injection':
      return headerInjectionValue(random);
  }
}
