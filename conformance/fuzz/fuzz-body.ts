import {
  effectiveSchema,
  isReadOnly,
  schemaType,
  type Schema,
} from '../../spec/schema/effective-schema.js';
import type { SeededRandom } from '../../spec/schema/seeded-random.js';
import { PROTOTYPE_KEYS, UNICODE_EDGES } from './fuzz-strings.js';
import {
  FUZZ_FAMILIES,
  fuzzJson,
  fuzzValue,
  type FuzzFamily,
  type FuzzValue,
} from './fuzz-values.js';

/** A request body the fuzzer sends: its text, and what was done to it. */
export interface FuzzBody {
  /** JSON text (or deliberately broken text). */
  text: string;
  families: FuzzFamily[];
  what: string[];
}

type Segment = string | number;

/** A place in the base body: the path to it and the schema that governs it. */
interface Place {
  segments: Segment[];
  schema: Schema;
}

/** Texts a JSON parser must refuse, or must read with care. */
const BROKEN_JSON: readonly [string, string][] = [
  ['', 'an empty body'],
  ['{', 'an unterminated object'],
  ['{"a":1}}', 'a stray closing brace'],
  ['{"a":1,}', 'a trailing comma'],
  ["{'a':1}", 'single quotes'],
  ['{"a":NaN}', 'NaN'],
  ['{"a":Infinity}', 'Infinity'],
  ['{"a":undefined}', 'undefined'],
  ['\ufeff{}', 'a byte order mark before the JSON'],
  ['{}\u0000', 'a NUL after the JSON'],
  ['{} {}', 'two JSON texts'],
  ['{"a":"\\x41"}', 'an invalid escape'],
  ['{"a":"\\u12"}', 'a short \\u escape'],
  ['/*c*/{}', 'a comment'],
  ['{"name":"a","name":"b"}', 'a duplicated key'],
  ['null', 'null'],
  ['true', 'a bare boolean'],
  ['0', 'a bare number'],
  ['"text"', 'a bare string'],
  ['[]', 'an empty array'],
  ['{"a":"\ud800"}', 'a raw lone surrogate (UTF-8 encoding sends U+FFFD)'],
];

/** Splice markers: strings no generator makes, replaced by JSON text after stringifying. */
const marker = (n: number) => `\u0001apikit-fuzz-${n}\u0001`;

/**
 * A fuzzed body from a valid `base`: sent unchanged (so writes succeed and get read back), with
 * a valid-but-awkward value (Unicode edge strings within the length limits, numbers at their
 * bounds), with one to three values replaced by fuzz values of any family, with an extra
 * prototype key or a property removed, or replaced whole (broken JSON, a wrong type, deep
 * nesting, huge values). Deterministic for a given random stream.
 *
 * @example
 * fuzzBody({ name: 'Ada', email: 'a@example.com' }, schema, seededRandom(7)).text;
 */
export function fuzzBody(base: unknown, schema: Schema, random: SeededRandom): FuzzBody {
  const places = collectPlaces(base, schema);
  const roll = random.next();
  if (base === undefined || roll < 0.12) return wholeBody(schema, random);
  if (roll < 0.3) return { text: JSON.stringify(base), families: [], what: ['a valid body'] };
  if (roll < 0.45) {
    const edge = awkwardButValid(base, places, random);
    if (edge) return edge;
  }
  const body = structuredClone(base) as unknown;
  const splices: string[] = [];
  const families: FuzzFamily[] = [];
  const what: string[] = [];
  const count = random.int(1, 3);
  for (let i = 0; i < count; i++) {
    const kind = random.next();
    if (kind < 0.15 && isObject(body)) {
      // An own key through JSON text: in a JS literal `__proto__` would set the prototype.
      const key = random.pick(PROTOTYPE_KEYS);
      const target = pickObject(body, places, random);
      target[marker(splices.length)] = marker(splices.length);
      const value = random.next() < 0.5 ? '{"polluted":true,"role":"ADMIN"}' : '"polluted"';
      splices.push(`key:${JSON.stringify(key)}:${value}`);
      families.push('prototype-key');
      what.push(`the own key ${key} added`);
      continue;
    }
    const place = places.length > 0 ? random.pick(places) : undefined;
    if (!place) continue;
    if (kind < 0.25) {
      remove(body, place.segments);
      families.push('boundary');
      what.push(`${pointer(place.segments)} removed`);
      continue;
    }
    const family = random.pick(FUZZ_FAMILIES);
    const value = fuzzValue(family, place.schema, random);
    setAt(body, place.segments, marker(splices.length));
    splices.push(fuzzJson(value));
    families.push(family);
    what.push(`${pointer(place.segments)}: ${value.what}`);
  }
  return { text: splice(JSON.stringify(body), splices), families, what };
}

/** The body replaced whole: broken JSON, or a fuzz value of a random family. */
function wholeBody(schema: Schema, random: SeededRandom): FuzzBody {
  if (random.next() < 0.4) {
    const [text, what] = random.pick(BROKEN_JSON);
    return { text, families: ['wrong-type'], what: [`the body is ${what}`] };
  }
  const family = random.pick(FUZZ_FAMILIES);
  const value: FuzzValue = fuzzValue(family, schema, random);
  return { text: fuzzJson(value), families: [family], what: [`the body is ${value.what}`] };
}

/**
 * The base with one free-text string set to a Unicode edge case that fits its length limits,
 * or one number set to its minimum or maximum: the server should take it and store it exactly.
 */
function awkwardButValid(
  base: unknown,
  places: Place[],
  random: SeededRandom,
): FuzzBody | undefined {
  const candidates = places.filter((p) => {
    const s = effectiveSchema(p.schema);
    const type = schemaType(s);
    if (type === 'integer' || type === 'number') return !s.enum;
    return type === 'string' && !s.enum && !s.format && !s.pattern;
  });
  if (candidates.length === 0) return undefined;
  const place = random.pick(candidates);
  const s = effectiveSchema(place.schema);
  const body = structuredClone(base) as unknown;
  if (schemaType(s) === 'string') {
    // Lone surrogates are a declared 400 in some APIs; keep this case valid everywhere.
    const edges = UNICODE_EDGES.filter((e) => !hasLoneSurrogate(e.text));
    const edge = random.pick(edges);
    const text = fitLength(edge.text, s.minLength ?? 0, s.maxLength ?? 100);
    setAt(body, place.segments, text);
    return {
      text: JSON.stringify(body),
      families: ['unicode'],
      what: [`${pointer(place.segments)}: ${edge.what} (within the length limits)`],
    };
  }
  const bound = random.next() < 0.5 ? s.minimum : s.maximum;
  if (typeof bound !== 'number') return undefined;
  setAt(body, place.segments, bound);
  return {
    text: JSON.stringify(body),
    families: ['boundary'],
    what: [`${pointer(place.segments)}: at its bound ${bound}`],
  };
}

/** Text cut or padded (with `x`) to between min and max code points. */
function fitLength(text: string, min: number, max: number): string {
  const points = [...text].slice(0, Math.max(1, max));
  while (points.length < min) points.push('x');
  return points.join('');
}

/** Every property and item of the base (not read-only), with its schema; bounded. */
function collectPlaces(base: unknown, schema: Schema): Place[] {
  const out: Place[] = [];
  const walk = (value: unknown, raw: Schema, segments: Segment[]) => {
    if (segments.length > 8 || out.length >= 64) return;
    const s = effectiveSchema(raw);
    if (Array.isArray(value)) {
      value.slice(0, 3).forEach((item, i) => {
        out.push({ segments: [...segments, i], schema: s.items ?? {} });
        walk(item, s.items ?? {}, [...segments, i]);
      });
    } else if (isObject(value)) {
      for (const [key, child] of Object.entries(value)) {
        const childSchema = s.properties?.[key] ?? {};
        if (isReadOnly(childSchema)) continue;
        out.push({ segments: [...segments, key], schema: childSchema });
        walk(child, childSchema, [...segments, key]);
      }
    }
  };
  walk(base, schema, []);
  return out;
}

function pickObject(body: Record<string, unknown>, places: Place[], random: SeededRandom) {
  const nested = places
    .map((p) => getAt(body, p.segments))
    .filter((v): v is Record<string, unknown> => isObject(v));
  return random.next() < 0.7 || nested.length === 0 ? body : random.pick(nested);
}

/** Whether text holds a UTF-16 surrogate without its partner. */
export function hasLoneSurrogate(text: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function getAt(root: unknown, segments: Segment[]): unknown {
  let v = root;
  for (const s of segments) v = (v as Record<Segment, unknown> | undefined)?.[s];
  return v;
}

function setAt(root: unknown, segments: Segment[], value: unknown): void {
  const parent = getAt(root, segments.slice(0, -1)) as Record<Segment, unknown> | undefined;
  if (parent && typeof parent === 'object')
    parent[segments[segments.length - 1] as Segment] = value;
}

function remove(root: unknown, segments: Segment[]): void {
  const parent = getAt(root, segments.slice(0, -1));
  const last = segments[segments.length - 1] as Segment;
  if (Array.isArray(parent) && typeof last === 'number') parent.splice(last, 1);
  else if (isObject(parent)) delete parent[last];
}

/** `#/items/0/product` */
function pointer(segments: Segment[]): string {
  return `#/${segments.map((s) => String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('/')}`;
}

/** Replaces the markers in JSON text: values by JSON text, `key:` markers by a key and value. */
function splice(json: string, splices: string[]): string {
  let out = json;
  splices.forEach((text, n) => {
    const m = JSON.stringify(marker(n));
    if (text.startsWith('key:')) {
      const rest = text.slice(4);
      out = out.replace(`${m}:${m}`, () => rest);
    } else out = out.replace(m, () => text);
  });
  return out;
}
