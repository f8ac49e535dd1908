import type { ErrorObject, ValidateFunction } from 'ajv';
import type { OpenAPIV3 } from 'openapi-types';
import { beforeAll, describe, expect, it } from 'vitest';
import { createAjv } from '../../spec/create-ajv.js';
import { loadSpec } from '../../spec/load-spec.js';
import { listOperations, type SpecOperation } from '../../spec/operations.js';
import { buildRequest } from '../http/build-request.js';
import type { CaseGenerator, NegativeCase } from './case-generator.js';
import { createCaseGenerator } from './create-case-generator.js';
import { seededRandom } from '../../spec/schema/seeded-random.js';

const ajv = createAjv();
const compiled = new Map<object, ValidateFunction>();
function validator(schema: object): ValidateFunction {
  let fn = compiled.get(schema);
  if (!fn) compiled.set(schema, (fn = ajv.compile(schema)));
  return fn;
}

function bodySchema(op: SpecOperation): object | undefined {
  return op.requestBody?.content['application/json']?.schema as object | undefined;
}

/** ajv's errors as fragment pointers; a missing or unknown property points at itself. */
function errorPointers(errors: ErrorObject[]): string[] {
  return errors.map((e) => {
    const base = `#${e.instancePath}`;
    if (e.keyword === 'required') return `${base}/${String(e.params.missingProperty)}`;
    if (e.keyword === 'additionalProperties') {
      return `${base}/${String(e.params.additionalProperty)}`;
    }
    return base;
  });
}

/** Whether `ancestor` is `pointer` or one of its parents. */
function isAtOrAbove(ancestor: string, pointer: string): boolean {
  return pointer === ancestor || pointer.startsWith(`${ancestor}/`) || ancestor === '#';
}

const PLAIN_DECIMAL = /^(0|[1-9][0-9]*)$/;

/** A raw parameter value converted as the reference server does (strict plain decimals). */
function convertScalar(schema: OpenAPIV3.SchemaObject, raw: string): { value: unknown } | null {
  if (schema.type === 'integer') return PLAIN_DECIMAL.test(raw) ? { value: Number(raw) } : null;
  if (schema.type === 'number') return Number.isNaN(Number(raw)) ? null : { value: Number(raw) };
  if (schema.type === 'boolean')
    return raw === 'true' || raw === 'false' ? { value: raw === 'true' } : null;
  return { value: raw };
}

/** The query string parsed and judged per parameter: name -> valid?, unknown names. */
function judgeQuery(op: SpecOperation, rawQuery: string): { invalid: string[]; unknown: string[] } {
  const query = new URLSearchParams(rawQuery);
  const params = op.parameters.filter((p) => p.in === 'query');
  const unknown = [...new Set(query.keys())].filter((k) => !params.some((p) => p.name === k));
  const invalid: string[] = [];
  for (const p of params) {
    const raw = query.getAll(p.name);
    if (raw.length === 0) {
      if (p.required) invalid.push(p.name);
      continue;
    }
    const schema = p.schema as OpenAPIV3.SchemaObject;
    let value: unknown;
    if (schema.type === 'array') {
      const items = schema.items as OpenAPIV3.SchemaObject;
      const pieces = p.explode === false ? raw.flatMap((r) => r.split(',')) : raw;
      const converted = pieces.map((piece) => convertScalar(items, piece));
      if (converted.some((c) => c === null)) {
        invalid.push(p.name);
        continue;
      }
      value = converted.map((c) => c?.value);
    } else {
      const converted = raw.length === 1 ? convertScalar(schema, raw[0] as string) : null;
      if (!converted) {
        invalid.push(p.name);
        continue;
      }
      value = converted.value;
    }
    if (!validator(schema)(value)) invalid.push(p.name);
  }
  return { invalid, unknown };
}

function pathIsValid(op: SpecOperation, name: string, raw: unknown): boolean {
  const p = op.parameters.find((q) => q.in === 'path' && q.name === name);
  if (!p) return false;
  const converted = convertScalar(p.schema as OpenAPIV3.SchemaObject, String(raw));
  return converted !== null && validator(p.schema as object)(converted.value);
}

function hasLoneSurrogate(text: string): boolean {
  return /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(text);
}

function at(value: unknown, pointer: string): unknown {
  return pointer
    .slice(2)
    .split('/')
    .filter(Boolean)
    .reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], value);
}

function emailsIn(value: unknown): string[] {
  return (JSON.stringify(value).match(/[^"@\s]+@[a-z0-9.-]+/g) ?? []).filter((e) =>
    e.startsWith('c'),
  );
}

let ops: SpecOperation[];
const op = (id: string) => ops.find((o) => o.operationId === id) as SpecOperation;

beforeAll(async () => {
  ops = listOperations(await loadSpec());
});

describe('positive data for every operation of the contract', () => {
  it('bodies validate against the request schema, never send read-only fields', () => {
    const generate = createCaseGenerator(seededRandom(1));
    let total = 0;
    for (const o of ops) {
      const schema = bodySchema(o);
      const bodies = generate.positiveBodies(o, 12);
      if (!schema) {
        expect(bodies, o.operationId).toEqual([]);
        continue;
      }
      expect(bodies.length, o.operationId).toBeGreaterThan(0);
      const readOnly = Object.entries((schema as OpenAPIV3.SchemaObject).properties ?? {}).filter(
        ([, p]) => JSON.stringify(p).includes('"readOnly":true'),
      );
      for (const body of bodies) {
        const validate = validator(schema);
        expect(validate(body), `${o.operationId} ${JSON.stringify(validate.errors)}`).toBe(true);
        for (const [name] of readOnly) expect(body).not.toHaveProperty(name);
        total++;
      }
    }
    expect(total).toBeGreaterThan(50);
  });

  it('puts the examples first, then required-only, all-properties and boundary bodies', () => {
    const generate = createCaseGenerator(seededRandom(2));
    const bodies = generate.positiveBodies(op('createUser'), 20) as Record<string, unknown>[];
    expect(bodies[0]).toMatchObject({ name: 'Grace Hopper', age: 45 });
    expect(bodies[1]).toMatchObject({ name: 'Alan Turing' });
    expect(Object.keys(bodies[2] ?? {}).sort()).toEqual(['email', 'name']);
    const names = bodies.map((b) => [...String(b.name)].length);
    expect(names).toContain(1);
    expect(names).toContain(100);
    const ages = bodies.map((b) => b.age);
    expect(ages).toContain(18);
    expect(ages).toContain(2147483647);
    expect(bodies.map((b) => String(b.email).length)).toContain(254);
    expect(bodies).toHaveLength(20);

    const orders = generate.positiveBodies(op('createUserOrder'), 8) as { items?: unknown[] }[];
    expect(orders.map((b) => b.items?.length ?? 0)).toContain(100);
    expect(generate.positiveBodies(op('createUserOrder'), 3)).toHaveLength(3);
    expect(generate.positiveBodies(op('getUser'), 5)).toEqual([]);
    expect(generate.positiveBodies(op('activateUser'), 5)).toEqual([{}]);
  });

  it('queries validate after the server-side string conversion', () => {
    const generate = createCaseGenerator(seededRandom(3));
    for (const o of ops) {
      const queries = generate.positiveQueries(o, 30);
      expect(queries.length, o.operationId).toBeGreaterThan(0);
      expect(queries.length).toBeLessThanOrEqual(30);
      for (const query of queries) {
        const path = buildRequest(o, {
          query,
          path: { id: 1, userId: 1, orderId: 1, roleId: 1 },
        }).path;
        const rawQuery = path.includes('?') ? path.slice(path.indexOf('?') + 1) : '';
        expect(judgeQuery(o, rawQuery), `${o.operationId} ${rawQuery}`).toEqual({
          invalid: [],
          unknown: [],
        });
      }
    }
    const list = generate.positiveQueries(op('listUsers'), 50);
    expect(list[0]).toEqual({});
    for (const q of [{ page: 0 }, { size: 1 }, { size: 100 }, { status: 'BLOCKED' }]) {
      expect(list).toContainEqual(q);
    }
    const sorts = list.flatMap((q) => (Array.isArray(q.sort) ? [q.sort.length] : []));
    expect(sorts).toContain(1);
    expect(Math.max(...sorts)).toBeGreaterThan(1);
    expect(generate.positiveQueries(op('getOrder'), 50)).toContainEqual({ expand: ['items'] });
    expect(generate.positiveQueries(op('listUsers'), 3)).toHaveLength(3);
  });
});

describe('negative cases for every operation of the contract', () => {
  let generate: CaseGenerator;
  beforeAll(() => {
    generate = createCaseGenerator(seededRandom(4));
  });

  function checkCase(o: SpecOperation, c: NegativeCase): void {
    const label = `${o.operationId}: ${c.description}`;
    const schema = bodySchema(o);
    const { call } = c;
    expect(c.description.length, label).toBeGreaterThan(5);
    if (call.body !== undefined && schema && !c.pointer.startsWith('#/header/Content-Type')) {
      const validBody = validator(schema)(call.body);
      const bodyCase = !/^#\/(path|query|header)\//.test(c.pointer);
      if (bodyCase) {
        expect(validBody, label).toBe(false);
        for (const pointer of errorPointers(validator(schema).errors ?? [])) {
          expect(isAtOrAbove(pointer, c.pointer), `${label}: error at ${pointer}`).toBe(true);
        }
        return;
      }
      expect(validBody, `${label}: the body of a parameter case must be valid`).toBe(true);
    }
    if (c.pointer === '#/header/Content-Type') {
      expect(['text/plain', null]).toContain(call.contentType);
      expect(validator(schema as object)(call.body), label).toBe(true);
      expect(c.description).toContain('415');
      return;
    }
    if (call.rawBody !== undefined) {
      if (c.pointer === '#') {
        expect(() => JSON.parse(call.rawBody as string), label).toThrow();
      } else {
        expect(call.rawBody, label).toContain('\\ud800');
        const parsed: unknown = JSON.parse(call.rawBody);
        expect(hasLoneSurrogate(String(at(parsed, c.pointer))), label).toBe(true);
      }
      return;
    }
    for (const [name, value] of Object.entries(call.path ?? {})) {
      const broken = c.pointer === `#/path/${name}`;
      expect(pathIsValid(o, name, value), `${label}: path ${name}=${String(value)}`).toBe(!broken);
    }
    if (c.pointer.startsWith('#/query/')) {
      const name = c.pointer.slice('#/query/'.length);
      const judged = judgeQuery(o, call.rawQuery ?? '');
      if (o.parameters.some((p) => p.in === 'query' && p.name === name)) {
        expect(judged, label).toEqual({ invalid: [name], unknown: [] });
      } else {
        expect(judged, label).toEqual({ invalid: [], unknown: [name] });
      }
    } else if (call.rawQuery !== undefined) {
      expect(judgeQuery(o, call.rawQuery), label).toEqual({ invalid: [], unknown: [] });
    }
    if (c.pointer.startsWith('#/header/')) {
      const name = c.pointer.slice('#/header/'.length);
      const p = o.parameters.find((q) => q.in === 'header' && q.name === name);
      expect(validator(p?.schema as object)(call.headers?.[name]), label).toBe(false);
    }
  }

  it('break exactly one thing, each where its pointer says', () => {
    let total = 0;
    for (const o of ops) {
      const cases = generate.negativeCases(o);
      for (const c of cases) checkCase(o, c);
      total += cases.length;
      const pointers = cases.map((c) => `${c.pointer} ${c.description}`);
      expect(new Set(pointers).size, o.operationId).toBe(pointers.length);
    }
    expect(total).toBeGreaterThan(200);
  });

  it('cover the contract rules for createUser', () => {
    const cases = generate.negativeCases(op('createUser'));
    const find = (pointer: string, text: string) =>
      cases.find((c) => c.pointer === pointer && c.description.includes(text));
    expect(find('#/name', 'missing')?.call.body).not.toHaveProperty('name');
    expect(find('#/email', 'missing')).toBeDefined();
    expect([
      ...String((find('#/name', 'maxLength')?.call.body as { name: string }).name),
    ]).toHaveLength(101);
    expect(find('#/name', 'minLength')?.call.body).toMatchObject({ name: '' });
    expect(find('#/age', 'minimum')?.call.body).toMatchObject({ age: 17 });
    expect(find('#/age', 'maximum')?.call.body).toMatchObject({ age: 2147483648 });
    expect(
      Number.isInteger((find('#/age', 'not an integer')?.call.body as { age: number }).age),
    ).toBe(false);
    expect(find('#/email', 'valid email')?.call.body).toMatchObject({ email: 'not-an-email' });
    expect(find('#/age', 'null')?.call.body).toMatchObject({ age: null });
    expect(find('#/unknownProperty', 'unknown')).toBeDefined();
    expect(find('#', 'an array')?.call.body).toEqual([]);
    expect(find('#', 'JSON')?.call.rawBody).toBe('{"name": ');
    expect(find('#/name', 'lone surrogate')?.call.rawBody).toContain('"\\ud800"');
    expect(find('#/header/Content-Type', '415')?.call.contentType).toBe('text/plain');
    expect(
      find('#/header/Idempotency-Key', 'maxLength')?.call.headers?.['Idempotency-Key'],
    ).toHaveLength(256);
    // Every body but the broken one carries a fresh unique email.
    const emails = cases.flatMap((c) => emailsIn(c.call.body ?? c.call.rawBody ?? ''));
    expect(new Set(emails).size).toBe(emails.length);
  });

  it('cover nested items, query integers and path ids', () => {
    const order = generate.negativeCases(op('createUserOrder'));
    const quantity = order.filter((c) => c.pointer === '#/items/0/quantity');
    expect(quantity.map((c) => c.description).join('\n')).toMatch(/minimum 1[\s\S]*maximum 1000/);
    expect(order.some((c) => c.pointer === '#/items' && c.description.includes('101 items'))).toBe(
      true,
    );

    const list = generate.negativeCases(op('listUsers'));
    const size = list.filter((c) => c.pointer === '#/query/size').map((c) => c.call.rawQuery);
    expect(size).toEqual(
      expect.arrayContaining([
        'size=0',
        'size=101',
        'size=%2B20',
        'size=020',
        'size=20.0',
        'size=abc',
      ]),
    );
    expect(size.some((q) => /^size=\d+e\d$/.test(q ?? ''))).toBe(true);
    expect(list.find((c) => c.pointer === '#/query/status')?.call.rawQuery).toBe('status=active');
    expect(list.find((c) => c.pointer === '#/query/sort')?.call.rawQuery).toBe('sort=unknownValue');
    expect(list.find((c) => c.pointer === '#/query/unknownParam')?.call.rawQuery).toBe(
      'unknownParam=1',
    );

    const ids = generate.negativeCases(op('getUser')).map((c) => [c.pointer, c.call.path?.id]);
    expect(ids).toEqual([
      ['#/path/id', '0'],
      ['#/path/id', '-1'],
      ['#/path/id', 'abc'],
      ['#/path/id', '1.5'],
      ['#/path/id', '9007199254740992'],
    ]);
    // Nothing to break but an unknown query parameter, and a documented 400: that one case,
    // sent only where the spec declares unknown query parameters refused (its convention).
    expect(generate.negativeCases(op('listRoles')).map((c) => [c.pointer, c.convention])).toEqual([
      ['#/query/unknownParam', 'unknown-query-parameters'],
    ]);
  });
});

describe('reproducibility and unique emails', () => {
  const run = (seed: number) => {
    const generate = createCaseGenerator(seededRandom(seed));
    return ops.map((o) => ({
      bodies: generate.positiveBodies(o, 10),
      queries: generate.positiveQueries(o, 10),
      negatives: generate.negativeCases(o),
    }));
  };

  it('gives the same data for the same seed and other data for another', () => {
    const first = JSON.stringify(run(7));
    expect(JSON.stringify(run(7))).toBe(first);
    const other = createCaseGenerator(seededRandom(8)).positiveBodies(op('createUser'), 12);
    const same = createCaseGenerator(seededRandom(7)).positiveBodies(op('createUser'), 12);
    const masked = (v: unknown) => JSON.stringify(v).replace(/conform-[0-9a-f]+-\d+x*@/g, '@');
    expect(masked(other.slice(6))).not.toBe(masked(same.slice(6)));
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(same));
  });

  it('never repeats an email across 200 calls', () => {
    const generate = createCaseGenerator(seededRandom(9));
    const schema = bodySchema(op('createUser')) as OpenAPIV3.SchemaObject;
    const emails: string[] = [];
    for (let i = 0; i < 200; i++) {
      for (const body of generate.positiveBodies(op('createUser'), 3)) {
        emails.push((body as { email: string }).email);
      }
      emails.push((generate.value(schema) as { email: string }).email);
    }
    expect(emails).toHaveLength(800);
    expect(new Set(emails.map((e) => e.toLowerCase())).size).toBe(800);
    for (const email of emails) expect(email).toMatch(/^conform-[0-9a-f]{8}-\d+x*@/);
  });
});
