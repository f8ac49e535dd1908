import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../spec/schema/seeded-random.js';
import { hasLoneSurrogate } from './fuzz-body.js';
import { encodeComponent, headerSafe, INJECTED_HEADER, PROTOTYPE_KEYS } from './fuzz-strings.js';
import {
  FUZZ_FAMILIES,
  fuzzJson,
  fuzzText,
  fuzzValue,
  HUGE_LIMIT,
  type FuzzFamily,
  type FuzzValue,
} from './fuzz-values.js';

const SCHEMAS = [
  { type: 'string', minLength: 1, maxLength: 100 },
  { type: 'integer', format: 'int32', minimum: 18 },
  { type: 'array', items: { type: 'integer' }, maxItems: 5 },
  { type: 'object', properties: { a: { type: 'string' } } },
  { type: 'string', enum: ['ACTIVE', 'INACTIVE'] },
];

/** Many values of a family, over several schemas and seeds. */
function sample(family: FuzzFamily, n = 60): FuzzValue[] {
  return Array.from({ length: n }, (_, i) =>
    fuzzValue(family, SCHEMAS[i % SCHEMAS.length]!, seededRandom(i).fork(family)),
  );
}

/** The JSON value of a fuzz value as a server parses it. */
const parsed = (v: FuzzValue) => JSON.parse(fuzzJson(v)) as unknown;

const depthOf = (text: string) => {
  let depth = 0;
  let max = 0;
  for (const ch of text) {
    if (ch === '[' || ch === '{') max = Math.max(max, ++depth);
    else if (ch === ']' || ch === '}') depth--;
  }
  return max;
};

const typeOf = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : Number.isInteger(v) ? 'integer' : typeof v;

describe('the fuzz value families', () => {
  it('are deterministic per seed and differ between seeds', () => {
    for (const family of FUZZ_FAMILIES) {
      const a = Array.from({ length: 20 }, (_, i) =>
        fuzzValue(family, SCHEMAS[0]!, seededRandom(7).fork(`${i}`)),
      );
      const b = Array.from({ length: 20 }, (_, i) =>
        fuzzValue(family, SCHEMAS[0]!, seededRandom(7).fork(`${i}`)),
      );
      const c = Array.from({ length: 20 }, (_, i) =>
        fuzzValue(family, SCHEMAS[0]!, seededRandom(8).fork(`${i}`)),
      );
      expect(a.map(fuzzJson)).toEqual(b.map(fuzzJson));
      expect(a.map(fuzzJson)).not.toEqual(c.map(fuzzJson));
      for (const v of a) expect(v.family).toBe(family);
    }
  });

  it('every value is valid JSON text, bounded in size, and says what it is', () => {
    for (const family of FUZZ_FAMILIES) {
      for (const v of sample(family)) {
        expect(() => parsed(v)).not.toThrow();
        expect(fuzzJson(v).length).toBeLessThanOrEqual(HUGE_LIMIT);
        expect(v.what.length).toBeGreaterThan(3);
      }
    }
  });

  it('boundary: values at and past the schema edges', () => {
    const texts = new Set(
      Array.from({ length: 200 }, (_, i) =>
        fuzzJson(fuzzValue('boundary', SCHEMAS[1]!, seededRandom(i))),
      ),
    );
    for (const edge of ['18', '17', '2147483647', '2147483648', '0', '-1', '9007199254740991'])
      expect(texts).toContain(edge);
    const strings = Array.from({ length: 200 }, (_, i) =>
      fuzzValue('boundary', SCHEMAS[0]!, seededRandom(i)),
    ).map((v) => v.value as string);
    expect(strings).toContain('');
    expect(strings.map((s) => [...s].length)).toContain(101);
    expect(strings.some((s) => s.length === 200 && [...s].length === 100)).toBe(true);
  });

  it('wrong-type: never the type the schema asks for', () => {
    SCHEMAS.slice(0, 4).forEach((schema, i) => {
      for (let seed = 0; seed < 40; seed++) {
        const v = parsed(fuzzValue('wrong-type', schema, seededRandom(seed * 10 + i)));
        const type = typeOf(v);
        expect(
          type === schema.type ||
            (schema.type === 'integer' && type === 'number' && Number.isInteger(v)),
        ).toBe(false);
      }
    });
  });

  it('huge: long strings, arrays or objects, some above 100 KiB', () => {
    const sizes = sample('huge', 80).map((v) => fuzzJson(v).length);
    expect(Math.min(...sizes)).toBeGreaterThanOrEqual(2000);
    expect(sizes.some((s) => s > 100 * 1024)).toBe(true);
  });

  it('nested: arrays or objects nested at least 64 deep, up to tens of thousands', () => {
    const depths = sample('nested', 80).map((v) => depthOf(fuzzJson(v)));
    expect(Math.min(...depths)).toBeGreaterThanOrEqual(64);
    expect(Math.max(...depths)).toBeGreaterThanOrEqual(20_000);
  });

  it('unicode: lone surrogates, RTL overrides, NUL and other edge cases', () => {
    const texts = sample('unicode', 300).map((v) => v.value as string);
    expect(texts.some(hasLoneSurrogate)).toBe(true);
    expect(texts.some((t) => t.includes('\u202e'))).toBe(true);
    expect(texts.some((t) => t.includes('\u0000'))).toBe(true);
    expect(texts.some((t) => /[\u0590-\u06ff]/.test(t))).toBe(true);
  });

  it('prototype-key: __proto__ and constructor as own keys of the JSON, or as strings', () => {
    const values = sample('prototype-key', 120);
    const ownKeys = values
      .map(parsed)
      .filter((v): v is object => typeof v === 'object' && v !== null)
      .flatMap((v) => Object.keys(v));
    expect(ownKeys).toContain('__proto__');
    expect(ownKeys).toContain('constructor');
    for (const key of ownKeys) expect(PROTOTYPE_KEYS).toContain(key);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('giant-integer: numbers no double carries exactly, Infinity when parsed, or -0', () => {
    const texts = sample('giant-integer', 120).map(fuzzJson);
    expect(texts).toContain('9007199254740993');
    expect(texts).toContain('1e309');
    expect(texts.some((t) => /^\d{300,}$/.test(t))).toBe(true);
    expect(texts.map((t) => JSON.parse(t) as number)).toContain(Infinity);
  });

  it('header-injection: CR/LF in every spelling, naming the injected header', () => {
    const texts = sample('header-injection', 200).map(fuzzText);
    expect(texts.some((t) => t.includes(`\r\n${INJECTED_HEADER}`))).toBe(true);
    expect(texts.some((t) => /%0d%0a/i.test(t))).toBe(true);
    expect(texts.some((t) => t.includes('\u2028'))).toBe(true);
    expect(texts.filter((t) => t.includes(INJECTED_HEADER)).length).toBeGreaterThan(100);
  });
});

describe('sendable forms of fuzz text', () => {
  it('headerSafe keeps visible ASCII and percent-encodes the rest (never CR, LF or NUL)', () => {
    expect(headerSafe(`a\r\n${INJECTED_HEADER}: x`)).toBe(`a%0D%0A${INJECTED_HEADER}: x`);
    expect(headerSafe('\u0000')).toBe('%00');
    expect(headerSafe('é')).toBe('%C3%A9');
    expect(headerSafe('  ')).toBe('%20');
  });

  it('encodeComponent never throws: a lone surrogate becomes WTF-8 bytes', () => {
    expect(encodeComponent('\ud800')).toBe('%ED%A0%80');
    expect(encodeComponent('a b/c')).toBe(encodeURIComponent('a b/c'));
    expect(encodeComponent('😀é')).toBe(encodeURIComponent('😀é'));
  });
});
