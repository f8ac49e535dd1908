import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../spec/load-spec.js';
import { listOperations, type SpecOperation } from '../../spec/operations.js';
import { createCaseGenerator } from '../generate/create-case-generator.js';
import { seededRandom } from '../../spec/schema/seeded-random.js';
import { createEmailSource } from '../../spec/schema/unique-emails.js';
import { fuzzBases, fuzzCase, type FuzzCase } from './fuzz-operation.js';
import { fitEncoded, mightNameExisting, pathText } from './fuzz-parameters.js';
import { hasLoneSurrogate } from './fuzz-body.js';
import { encodeComponent } from './fuzz-strings.js';
import { fuzzRequest, pathValues } from './fuzz-request.js';

let operations: SpecOperation[];
beforeAll(async () => {
  operations = listOperations(await loadSpec());
});
const op = (id: string) => operations.find((o) => o.operationId === id)!;

/** The cases of an operation for a seed, from a fresh generator (as a run makes them). */
function cases(id: string, seed: number, count: number): FuzzCase[] {
  const generate = createCaseGenerator(seededRandom(seed).fork('fuzz-data'), { runTag: 't' });
  const bases = fuzzBases(op(id), generate, count, createEmailSource('t'));
  const random = seededRandom(seed).fork(`fuzz:${id}`);
  return Array.from({ length: count }, (_, i) => fuzzCase(op(id), i, bases, random, 'k'));
}

describe('fuzzCase', () => {
  it('is reproducible from the seed, case by case', () => {
    expect(cases('updateUser', 42, 60)).toEqual(cases('updateUser', 42, 60));
    expect(cases('updateUser', 42, 60)).not.toEqual(cases('updateUser', 43, 60));
    // A case does not depend on how many came before it.
    expect(cases('createUser', 5, 40)[30]).toEqual(cases('createUser', 5, 31)[30]);
  });

  it('mixes valid requests with ones broken in the body, path, query and headers', () => {
    const all = cases('updateUserOrder', 1, 200);
    const valid = all.filter((c) => c.what.length === 0);
    expect(valid.length).toBeGreaterThan(15);
    const parts = (c: FuzzCase) => c.what.map((w) => w.split(/[ :]/)[0]);
    const seen = new Set(all.flatMap(parts));
    for (const part of ['#/product', 'path', 'query', 'header'])
      expect([...seen].some((s) => s.startsWith(part))).toBe(true);
    const families = new Set(all.flatMap((c) => c.families));
    expect(families.size).toBe(8);
  });

  it('sends bodies with own __proto__ keys, deep nesting and giant numbers as raw JSON', () => {
    const bodies = cases('createUser', 3, 300).flatMap((c) => (c.body ? [c.body] : []));
    expect(bodies.some((b) => b.includes('"__proto__":'))).toBe(true);
    expect(bodies.some((b) => b.includes('['.repeat(1000)))).toBe(true);
    expect(bodies.some((b) => /:(9007199254740993|1e309|-1e309|1E400)\b/.test(b))).toBe(true);
    const withProto = bodies.find((b) => /^\{.*"__proto__":\{/.test(b))!;
    expect(Object.keys(JSON.parse(withProto) as object)).toContain('__proto__');
  });

  it('never sends an unsafe operation a path value a lax parser reads as some existing id', () => {
    for (const id of [
      'deleteUser',
      'replaceUser',
      'updateUserOrder',
      'blockUser',
      'createUserOrder',
    ]) {
      for (const c of cases(id, 9, 200)) {
        for (const choice of Object.values(c.path)) {
          if (choice.kind === 'literal') expect(mightNameExisting(choice.text)).toBe(false);
        }
      }
    }
    // A safe operation may get any value.
    const literals = cases('getUser', 9, 200).flatMap((c) =>
      Object.values(c.path).flatMap((p) => (p.kind === 'literal' ? [p.text] : [])),
    );
    expect(literals.some(mightNameExisting)).toBe(true);
  });
});

describe('request size', () => {
  it('cuts fuzz text to whole code points whose encoding fits', () => {
    const emoji = fitEncoded('😀'.repeat(1000), 1500);
    expect(emoji.cut).toBe(true);
    expect(encodeComponent(emoji.text).length).toBeLessThanOrEqual(1500);
    expect(encodeComponent(emoji.text).length).toBeGreaterThan(1480);
    expect(hasLoneSurrogate(emoji.text)).toBe(false);
    expect(fitEncoded('\ud800x', 1500)).toEqual({ text: '\ud800x', cut: false });
  });

  it('keeps the request line and headers well under the 16 KiB servers allow', () => {
    const params = {
      values: { id: 5, userId: 5, orderId: 6, roleId: 2 },
      owned: new Set(['id', 'userId', 'orderId']),
    };
    for (const id of ['updateUserOrder', 'listUsers', 'optionsUserRole', 'createUserOrder']) {
      for (const c of cases(id, 13, 200)) {
        const request = fuzzRequest(op(id), c, params, `Bearer ${'t'.repeat(300)}`);
        const head = Object.entries(request.headers ?? {}).reduce(
          (n, [k, v]) => n + k.length + v.length + 4,
          request.path.length,
        );
        expect(head).toBeLessThan(12_000);
      }
    }
  });
});

describe('mightNameExisting and fixture variants', () => {
  it.each(['7', '07', '+7', '7abc', ' 7', '0x7', '1e3', '7.0', '5e-324'])(
    '%j could name an id',
    (t) => expect(mightNameExisting(t)).toBe(true),
  );
  it.each(['0', '-1', '', 'abc', '0.5', '-0', '__proto__', '\u0000'])('%j names none', (t) =>
    expect(mightNameExisting(t)).toBe(false),
  );
  it('writes the fixture id so that a lax parser still reads that id', () => {
    for (const variant of [
      'exact',
      'leading-zero',
      'plus',
      'fraction',
      'exponent',
      'space',
      'suffix',
    ] as const) {
      const text = pathText({ kind: 'fixture', variant }, 42);
      expect(parseFloat(text.trim())).toBe(42);
    }
  });
});

describe('fuzzRequest', () => {
  const testCase = (path: FuzzCase['path']): FuzzCase => ({
    operationId: 'x',
    index: 0,
    families: [],
    what: [],
    path,
    query: 'a=%ff',
    headers: { Accept: 'text/html' },
    body: '{"__proto__":1}',
  });

  it('fills the path with percent-encoded values, keeps the raw query and lets case headers win', () => {
    const request = fuzzRequest(
      op('updateUserOrder'),
      testCase({
        userId: { kind: 'fixture', variant: 'exact' },
        orderId: { kind: 'literal', text: '\ud800/x' },
      }),
      { values: { userId: 5, orderId: 9 }, owned: new Set(['userId', 'orderId']) },
      'Bearer t',
    );
    expect(request).toEqual({
      method: 'PATCH',
      path: '/users/5/orders/%ED%A0%80%2Fx?a=%ff',
      headers: {
        Accept: 'text/html',
        Authorization: 'Bearer t',
        'Content-Type': 'application/json',
      },
      body: '{"__proto__":1}',
    });
  });

  it('sends 0 for a resource the run does not own behind an unsafe operation', () => {
    const params = { values: { id: 1 }, owned: new Set<string>() };
    const fixture = { id: { kind: 'fixture', variant: 'exact' } } as const;
    expect(pathValues(op('deleteUser'), testCase(fixture), params)).toEqual({ id: '0' });
    expect(pathValues(op('getUser'), testCase(fixture), params)).toEqual({ id: '1' });
    // Below a resource of the run (a role of its user), the example may be used.
    const role = { values: { id: 5, roleId: 2 }, owned: new Set(['id']) };
    const both = { id: fixture.id, roleId: fixture.id };
    expect(pathValues(op('assignUserRole'), testCase(both), role)).toEqual({
      id: '5',
      roleId: '2',
    });
  });
});
