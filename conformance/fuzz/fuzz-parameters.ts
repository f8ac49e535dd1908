import type { OpenAPIV3 } from 'openapi-types';
import type { SpecOperation } from '../../spec/operations.js';
import { asSchema, type Schema } from '../../spec/schema/effective-schema.js';
import type { SeededRandom } from '../../spec/schema/seeded-random.js';
import { encodeComponent, PROTOTYPE_KEYS } from './fuzz-strings.js';
import {
  FUZZ_FAMILIES,
  fuzzText,
  fuzzValue,
  type FuzzFamily,
  type FuzzValue,
} from './fuzz-values.js';

/**
 * Longest fuzz text (as sent, after percent-encoding) in a path segment or query value (header
 * values: MAX_HEADER_CHARS). Request line and headers together stay well under the 16 KiB most
 * servers allow (Node's default): past it the parser answers before any route, with a status
 * no operation documents, which says nothing about the implementation.
 */
export const MAX_PARAMETER_CHARS = 1500;

/** The longest prefix of text (whole code points) whose percent-encoding fits in `max`. */
export function fitEncoded(
  text: string,
  max = MAX_PARAMETER_CHARS,
): { text: string; cut: boolean } {
  if (text.length * 3 <= max) return { text, cut: false };
  let length = 0;
  let end = 0;
  for (const ch of text) {
    length += encodeComponent(ch).length;
    if (length > max) return { text: text.slice(0, end), cut: true };
    end += ch.length;
  }
  return { text, cut: false };
}

/** A fuzz value's text for a URL, cut to fit, and its description (saying so when cut). */
function urlText(fuzz: FuzzValue): { text: string; what: string } {
  const fitted = fitEncoded(fuzzText(fuzz));
  return { text: fitted.text, what: fitted.cut ? `${fuzz.what} (cut to fit a URL)` : fuzz.what };
}

/** Ways to write a fixture's id that a lax parser reads as that same id. */
export type FixtureVariant =
  'exact' | 'leading-zero' | 'plus' | 'fraction' | 'exponent' | 'space' | 'suffix';

/**
 * A path parameter of a case: the value of a resource the run made (as is, or spelled so that
 * only a lax parser reads it as that id), or a fuzz literal. Fixture values are known only
 * when the case is sent; the choice is made (reproducibly) when the case is generated.
 */
export type PathChoice =
  { kind: 'fixture'; variant: FixtureVariant } | { kind: 'literal'; text: string };

/** What a part of a case carries, and what was done to it. */
export interface Fuzzed<T> {
  value: T;
  families: FuzzFamily[];
  what: string[];
}

const VARIANTS: readonly FixtureVariant[] = [
  'leading-zero',
  'plus',
  'fraction',
  'exponent',
  'space',
  'suffix',
];

/**
 * True when a lax server could read the text as an id of an existing resource (`7`, `07`,
 * `7abc`, `0x7`, `1e3`): such values are never sent to an unsafe operation, so that the fuzzer
 * can only change resources the run created.
 */
export function mightNameExisting(text: string): boolean {
  const t = text.trim();
  const lax = [Number(t), parseInt(t, 10), parseFloat(t)];
  return lax.some((n) => Number.isFinite(n) && n >= 1) || /^\s*\+?\d*[1-9]/.test(text);
}

/** A path parameter choice: mostly the fixture (exact or respelled), else a fuzz literal. */
export function fuzzPathParameter(
  param: OpenAPIV3.ParameterObject,
  unsafe: boolean,
  random: SeededRandom,
): Fuzzed<PathChoice> {
  const roll = random.next();
  if (roll < 0.5) return { value: { kind: 'fixture', variant: 'exact' }, families: [], what: [] };
  if (roll < 0.62) {
    const variant = random.pick(VARIANTS);
    return {
      value: { kind: 'fixture', variant },
      families: ['boundary'],
      what: [`path ${param.name}: the fixture id written with ${variant}`],
    };
  }
  const schema = asSchema(param.schema) as Schema;
  // Bounded: every family has values a lax parser takes for no id.
  for (let i = 0; i < 16; i++) {
    const family = random.pick(FUZZ_FAMILIES);
    const { text, what } = urlText(fuzzValue(family, schema, random));
    // `.`, `..` and the empty segment change the route, not the parameter.
    if (text === '' || text === '.' || text === '..') continue;
    if (unsafe && mightNameExisting(text)) continue;
    return {
      value: { kind: 'literal', text },
      families: [family],
      what: [`path ${param.name}: ${what}`],
    };
  }
  return {
    value: { kind: 'literal', text: '-1' },
    families: ['boundary'],
    what: [`path ${param.name}: -1`],
  };
}

/** The text of a path parameter for a fixture value (the variants keep the id readable). */
export function pathText(choice: PathChoice, fixture: unknown): string {
  if (choice.kind === 'literal') return choice.text;
  const id = String(fixture);
  switch (choice.variant) {
    case 'exact':
      return id;
    case 'leading-zero':
      return `0${id}`;
    case 'plus':
      return `+${id}`;
    case 'fraction':
      return `${id}.0`;
    case 'exponent':
      return `${id}e0`;
    case 'space':
      return ` ${id}`;
    case 'suffix':
      return `${id}abc`;
  }
}

const RAW_QUERIES: readonly [string, string][] = [
  ['%', 'a lone percent sign'],
  ['a=%zz', 'an invalid percent escape'],
  ['a=%ff%fe', 'percent escapes that are not UTF-8'],
  ['&&&', 'empty pairs'],
  ['=x', 'a pair without a name'],
  ['__proto__[polluted]=1', 'a bracketed __proto__ key'],
  ['constructor[prototype][polluted]=1', 'constructor.prototype in brackets'],
  ['a[]=1&a[]=2', 'bracket arrays'],
  ['q=' + 'x'.repeat(MAX_PARAMETER_CHARS), `a ${MAX_PARAMETER_CHARS}-character value`],
];

/**
 * A query string: a valid one (when the operation has parameters) with values replaced by
 * fuzz values, parameters repeated, unknown (prototype) names added, or a malformed string.
 */
export function fuzzQuery(
  op: SpecOperation,
  valid: Record<string, unknown>,
  random: SeededRandom,
): Fuzzed<string> {
  const declared = op.parameters.filter(
    (p): p is OpenAPIV3.ParameterObject => 'in' in p && p.in === 'query',
  );
  if (random.next() < 0.1) {
    const [text, what] = random.pick(RAW_QUERIES);
    return { value: text, families: ['wrong-type'], what: [`query: ${what}`] };
  }
  const pairs: [string, string][] = [];
  for (const [name, value] of Object.entries(valid)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) pairs.push([name, String(v)]);
  }
  const families: FuzzFamily[] = [];
  const what: string[] = [];
  const changes = random.int(1, 2);
  for (let i = 0; i < changes; i++) {
    const roll = random.next();
    if (roll < 0.15 || declared.length === 0) {
      const name = random.next() < 0.5 ? random.pick(PROTOTYPE_KEYS) : 'unknownParameter';
      pairs.push([name, '1']);
      families.push('prototype-key');
      what.push(`query: the unknown parameter ${name}`);
      continue;
    }
    const param = random.pick(declared);
    if (roll < 0.25) {
      pairs.push([param.name, pairs.find(([n]) => n === param.name)?.[1] ?? '1']);
      families.push('boundary');
      what.push(`query ${param.name}: repeated`);
      continue;
    }
    const family = random.pick(FUZZ_FAMILIES);
    const fuzzed = urlText(fuzzValue(family, asSchema(param.schema) as Schema, random));
    const at = pairs.findIndex(([n]) => n === param.name);
    if (at >= 0) pairs[at] = [param.name, fuzzed.text];
    else pairs.push([param.name, fuzzed.text]);
    families.push(family);
    what.push(`query ${param.name}: ${fuzzed.what}`);
  }
  const value = pairs.map(([n, v]) => `${encodeComponent(n)}=${encodeComponent(v)}`).join('&');
  return { value, families, what };
}

/** A serialized valid query, as sent when the case fuzzes another part. */
export function plainQuery(valid: Record<string, unknown>): string {
  const pairs: string[] = [];
  for (const [name, value] of Object.entries(valid)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value])
      pairs.push(`${encodeComponent(name)}=${encodeComponent(String(v))}`);
  }
  return pairs.join('&');
}
