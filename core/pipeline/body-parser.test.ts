import { beforeAll, describe, expect, it } from 'vitest';
import { createAjv } from '../../spec/create-ajv.js';
import { loadSpec } from '../../spec/load-spec.js';
import { listOperations, type SpecOperation } from '../../spec/operations.js';
import { ApiProblem } from '../domain/api-problem.js';
import { BodyParser, MAX_BODY_BYTES, describe as describeErrors } from './body-parser.js';

const parsers = new Map<string, BodyParser>();
let operations: SpecOperation[];
const ajv = createAjv();

beforeAll(async () => {
  operations = listOperations(await loadSpec());
});

/** The BodyParser of an operation, compiled on first use (compiling every schema is slow). */
function parserOf(operationId: string): BodyParser {
  let parser = parsers.get(operationId);
  if (!parser) {
    const op = operations.find((o) => o.operationId === operationId);
    if (!op) throw new Error(`no operation ${operationId}`);
    parser = new BodyParser(op, ajv);
    parsers.set(operationId, parser);
  }
  return parser;
}

const parser = parserOf;

const bytes = (text: string) => new TextEncoder().encode(text);

function problemOf(action: () => unknown): ApiProblem {
  try {
    action();
  } catch (error) {
    if (error instanceof ApiProblem) return error;
    throw error;
  }
  throw new Error('expected an ApiProblem');
}

/** Runs the parser as the pipeline does: media type first, then the body. */
function run(operationId: string, contentType: string | null, body: string | Uint8Array | null) {
  const raw = typeof body === 'string' ? bytes(body) : body;
  const headers = new Headers(contentType === null ? {} : { 'Content-Type': contentType });
  const p = parser(operationId);
  return p.parse(p.checkMediaType(headers, raw), raw);
}

const USER = { name: 'Grace Hopper', email: 'grace@example.com', age: 45 };

describe('BodyParser.checkMediaType', () => {
  it.each([
    { op: 'createUser', type: 'application/json', expected: 'application/json' },
    { op: 'createUser', type: 'application/json; charset=utf-8', expected: 'application/json' },
    { op: 'createUser', type: 'application/json;charset=UTF-8', expected: 'application/json' },
    { op: 'createUser', type: 'application/json; charset="utf-8"', expected: 'application/json' },
    { op: 'createUser', type: 'Application/JSON', expected: 'application/json' },
    { op: 'replaceUser', type: 'application/json', expected: 'application/json' },
    { op: 'updateUser', type: 'application/json', expected: 'application/json' },
    {
      op: 'updateUser',
      type: 'application/merge-patch+json',
      expected: 'application/merge-patch+json',
    },
    {
      op: 'updateUserOrder',
      type: 'application/merge-patch+json; charset=utf-8',
      expected: 'application/merge-patch+json',
    },
    { op: 'login', type: 'application/json', expected: 'application/json' },
    { op: 'activateUser', type: 'application/json', expected: 'application/json' },
  ])('$op takes $type', ({ op, type, expected }) => {
    expect(parser(op).checkMediaType(new Headers({ 'Content-Type': type }), bytes('{}'))).toBe(
      expected,
    );
  });

  it.each([
    { name: 'text/plain', op: 'createUser', type: 'text/plain' },
    { name: 'form data', op: 'login', type: 'application/x-www-form-urlencoded' },
    { name: 'a JSON look-alike', op: 'createUser', type: 'application/jsonx' },
    { name: 'another +json type', op: 'createUser', type: 'application/vnd.api+json' },
    { name: 'a Latin-1 charset', op: 'createUser', type: 'application/json; charset=iso-8859-1' },
    { name: 'a UTF-16 charset', op: 'updateUser', type: 'application/json; charset=utf-16' },
    { name: 'merge-patch on a POST', op: 'createUser', type: 'application/merge-patch+json' },
    { name: 'merge-patch on a PUT', op: 'replaceUser', type: 'application/merge-patch+json' },
    { name: 'JSON Patch on a PATCH', op: 'updateUser', type: 'application/json-patch+json' },
    { name: 'an empty Content-Type', op: 'createUser', type: '' },
    { name: 'a bodiless action with text', op: 'cancelOrder', type: 'text/plain' },
  ])('refuses $name with 415', ({ op, type }) => {
    const problem = problemOf(() =>
      parser(op).checkMediaType(new Headers({ 'Content-Type': type }), bytes('{}')),
    );
    expect(problem.status).toBe(415);
    expect(problem.slug).toBe('unsupported-media-type');
  });

  it.each([
    { name: 'a POST', op: 'createUser' },
    { name: 'a PUT', op: 'replaceUser' },
    { name: 'a PATCH', op: 'updateUser' },
    { name: 'a bodiless action', op: 'activateUser' },
  ])('refuses a body without Content-Type on $name with 415', ({ op }) => {
    const problem = problemOf(() => parser(op).checkMediaType(new Headers(), bytes('{}')));
    expect(problem.status).toBe(415);
    expect(problem.detail).toMatch(/needs a Content-Type/);
  });

  it.each([
    { op: 'updateUser', acceptPatch: 'application/json, application/merge-patch+json' },
    { op: 'updateUserOrder', acceptPatch: 'application/json, application/merge-patch+json' },
  ])('sends Accept-Patch with the 415 of a PATCH ($op)', ({ op, acceptPatch }) => {
    const problem = problemOf(() =>
      parser(op).checkMediaType(new Headers({ 'Content-Type': 'text/plain' }), bytes('{}')),
    );
    expect(problem.headers['Accept-Patch']).toBe(acceptPatch);
  });

  it.each(['createUser', 'replaceUser', 'activateUser'])(
    'sends no Accept-Patch with the 415 of %s',
    (op) => {
      const problem = problemOf(() =>
        parser(op).checkMediaType(new Headers({ 'Content-Type': 'text/plain' }), bytes('{}')),
      );
      expect(problem.headers).not.toHaveProperty('Accept-Patch');
    },
  );

  it.each([
    { name: 'no body', body: null },
    { name: 'an empty body', body: new Uint8Array() },
  ])('lets a bodiless action through with $name and no Content-Type', ({ body }) => {
    for (const op of ['activateUser', 'cancelOrder', 'blockUser', 'unblockUser', 'resetData']) {
      expect(parser(op).checkMediaType(new Headers(), body), op).toBeUndefined();
    }
    expect(parser('assignUserRole').checkMediaType(new Headers(), body)).toBeUndefined();
  });

  it.each(['getUser', 'deleteUser', 'removeUserRole', 'listUsers'])(
    'ignores the body of %s (a method that takes none)',
    (op) => {
      const headers = new Headers({ 'Content-Type': 'text/plain' });
      expect(parser(op).checkMediaType(headers, bytes('hello'))).toBeUndefined();
      expect(parser(op).parse(undefined, bytes('hello'))).toBeUndefined();
    },
  );

  it('knows its media types from the spec', () => {
    expect(parser('createUser').mediaTypes).toEqual(['application/json']);
    expect(parser('updateUser').mediaTypes).toEqual([
      'application/json',
      'application/merge-patch+json',
    ]);
  });

  it('limits bodies to 100 KiB', () => {
    expect(MAX_BODY_BYTES).toBe(102_400);
  });
});

describe('BodyParser.parse: JSON syntax', () => {
  it.each([
    { name: 'an empty body', body: '' },
    { name: 'only whitespace', body: '  \n ' },
    { name: 'a truncated object', body: '{"name":' },
    { name: 'single quotes', body: "{'name':'a'}" },
    { name: 'a trailing comma', body: '{"name":"a",}' },
    { name: 'two documents', body: '{}{}' },
    { name: 'NaN', body: '{"age":NaN}' },
    { name: 'a comment', body: '{"name":"a"} // hi' },
  ])('answers $name with 400 malformed-json at #', ({ body }) => {
    const problem = problemOf(() => run('createUser', 'application/json', body));
    expect(problem.slug).toBe('malformed-json');
    expect(problem.status).toBe(400);
    expect(problem.errors).toHaveLength(1);
    expect(problem.errors?.[0]?.pointer).toBe('#');
  });

  it.each([
    { name: 'a lone continuation byte', body: [0x7b, 0x80, 0x7d] },
    { name: 'an overlong encoding', body: [0x22, 0xc0, 0xaf, 0x22] },
    { name: 'Latin-1 é', body: [...bytes('{"name":"Ren'), 0xe9, ...bytes('","email":"r@x.io"}')] },
    { name: 'an encoded surrogate (CESU-8)', body: [0x22, 0xed, 0xa0, 0x80, 0x22] },
  ])('answers invalid UTF-8 ($name) with 400 malformed-json', ({ body }) => {
    const problem = problemOf(() => run('createUser', 'application/json', new Uint8Array(body)));
    expect(problem.slug).toBe('malformed-json');
    expect(problem.errors).toEqual([{ pointer: '#', detail: 'the body is not valid UTF-8' }]);
  });
});

describe('BodyParser.parse: the schema', () => {
  it('returns a valid body as parsed', () => {
    expect(run('createUser', 'application/json', JSON.stringify(USER))).toEqual(USER);
  });

  it.each([
    {
      name: 'missing required properties point at themselves',
      op: 'createUser',
      body: {},
      expected: ['#/email', '#/name'],
    },
    {
      name: 'an unknown property points at itself',
      op: 'createUser',
      body: { ...USER, nickname: 'Amazing' },
      expected: ['#/nickname'],
    },
    {
      name: 'read-only fields are unknown on create',
      op: 'createUser',
      body: { ...USER, id: 1, status: 'ACTIVE' },
      expected: ['#/id', '#/status'],
    },
    {
      name: 'every violation at once',
      op: 'createUser',
      body: { name: '', email: 'not-an-email', age: 17, extra: true },
      expected: ['#/age', '#/email', '#/extra', '#/name'],
    },
    {
      name: 'name null on PATCH',
      op: 'updateUser',
      body: { name: null },
      expected: ['#/name'],
    },
    {
      name: 'email null on PATCH',
      op: 'updateUser',
      body: { email: null },
      expected: ['#/email'],
    },
    {
      name: 'an age that is not an integer',
      op: 'createUser',
      body: { ...USER, age: 30.5 },
      expected: ['#/age'],
    },
    {
      name: 'an age as a string',
      op: 'createUser',
      body: { ...USER, age: '30' },
      expected: ['#/age'],
    },
    {
      name: 'an email over 254 characters',
      op: 'createUser',
      body: { ...USER, email: `${'a'.repeat(64)}@${'b'.repeat(186)}.com` },
      expected: ['#/email'],
    },
    {
      name: 'order items, each fault with its index',
      op: 'createUserOrder',
      body: {
        product: 'p',
        categoryId: 1,
        items: [
          { product: 'ok', quantity: 1 },
          { product: 'x', quantity: 0 },
          { product: '', quantity: 1001 },
          { quantity: 1 },
        ],
      },
      expected: [
        '#/items/1/quantity',
        '#/items/2/product',
        '#/items/2/quantity',
        '#/items/3/product',
      ],
    },
    {
      name: 'more than 100 items',
      op: 'createUserOrder',
      body: {
        product: 'p',
        categoryId: 1,
        items: Array.from({ length: 101 }, () => ({ product: 'x', quantity: 1 })),
      },
      expected: ['#/items'],
    },
    {
      name: 'categoryId 0',
      op: 'createUserOrder',
      body: { product: 'p', categoryId: 0 },
      expected: ['#/categoryId'],
    },
    {
      name: 'an unknown order status on PATCH',
      op: 'updateUserOrder',
      body: { status: 'LOST' },
      expected: ['#/status'],
    },
    {
      name: 'login without a password',
      op: 'login',
      body: { username: 'admin@example.com' },
      expected: ['#/password'],
    },
    {
      name: 'a top-level array',
      op: 'createUser',
      body: [USER],
      expected: ['#'],
    },
    {
      name: 'a top-level string',
      op: 'createUser',
      body: 'Grace',
      expected: ['#'],
    },
    {
      name: 'a top-level null on PATCH',
      op: 'updateUser',
      body: null,
      expected: ['#'],
    },
  ])('$name', ({ op, body, expected }) => {
    const problem = problemOf(() => run(op, 'application/json', JSON.stringify(body)));
    expect(problem.slug).toBe('validation-failed');
    expect(problem.status).toBe(400);
    expect([...new Set(problem.errors?.map((e) => e.pointer))].sort()).toEqual(expected);
    for (const error of problem.errors ?? []) expect(error.detail).not.toBe('');
  });

  it('says what a missing and an unknown property are', () => {
    const problem = problemOf(() =>
      run('createUser', 'application/json', JSON.stringify({ email: 'a@b.io', x: 1 })),
    );
    expect(problem.errors).toEqual(
      expect.arrayContaining([
        { pointer: '#/name', detail: 'is required' },
        { pointer: '#/x', detail: 'is not a known property' },
      ]),
    );
    expect(problem.detail).toMatch(/\(and 1 more\)$/);
  });

  it.each([
    { name: 'PUT with the read-only UserDto fields', op: 'replaceUser' },
    { name: 'PATCH with the read-only UserDto fields', op: 'updateUser' },
  ])('accepts $name', ({ op }) => {
    const body = {
      ...USER,
      id: 2,
      status: 'ACTIVE',
      createdAt: '2026-01-10T08:00:00.000Z',
      updatedAt: '2026-01-10T08:00:00.000Z',
    };
    expect(run(op, 'application/json', JSON.stringify(body))).toEqual(body);
  });

  it.each([
    { name: 'an empty patch', body: {} },
    { name: 'age null clears it', body: { age: null } },
    { name: 'one field', body: { name: 'Grace' } },
  ])('accepts a merge patch: $name', ({ body }) => {
    expect(run('updateUser', 'application/merge-patch+json', JSON.stringify(body))).toEqual(body);
    expect(run('updateUser', 'application/json', JSON.stringify(body))).toEqual(body);
  });

  it('accepts a PUT of an order with its read-only fields, as a GET returned it', () => {
    const order = {
      id: 1,
      userId: 2,
      product: 'Pen',
      categoryId: 1,
      status: 'PENDING',
      createdAt: '2026-01-10T08:00:00.000Z',
      updatedAt: '2026-01-10T08:00:00.000Z',
      user: { id: 2, name: 'Bob' },
      items: [{ product: 'Pen', quantity: 2 }],
    };
    expect(run('replaceUserOrder', 'application/json', JSON.stringify(order))).toEqual(order);
  });
});

describe('BodyParser.parse: names as Unicode code points', () => {
  const emoji = '😀'; // one code point, two UTF-16 units
  it.each([
    { name: '100 astral code points', value: emoji.repeat(100), ok: true },
    { name: '101 astral code points', value: emoji.repeat(101), ok: false },
    { name: 'one astral code point', value: emoji, ok: true },
    { name: 'combining marks count one by one', value: 'e\u0301'.repeat(50), ok: true },
  ])('$name: ok=$ok', ({ value, ok }) => {
    const body = JSON.stringify({ name: value, email: 'a@b.io' });
    if (ok)
      expect(run('createUser', 'application/json', body)).toEqual({ name: value, email: 'a@b.io' });
    else
      expect(
        problemOf(() => run('createUser', 'application/json', body)).errors?.[0]?.pointer,
      ).toBe('#/name');
  });

  it.each([
    {
      name: 'a lone high surrogate',
      json: '{"name":"a\\ud800","email":"a@b.io"}',
      pointer: '#/name',
    },
    {
      name: 'a lone low surrogate',
      json: '{"name":"\\udc00a","email":"a@b.io"}',
      pointer: '#/name',
    },
    {
      name: 'reversed pair',
      json: '{"name":"\\udc00\\ud800","email":"a@b.io"}',
      pointer: '#/name',
    },
    {
      name: 'in a nested item',
      json: '{"product":"p","categoryId":1,"items":[{"product":"\\ud83d","quantity":1}]}',
      op: 'createUserOrder',
      pointer: '#/items/0/product',
    },
    { name: 'in the email', json: '{"name":"a","email":"a\\udfff@b.io"}', pointer: '#/email' },
  ])('refuses $name at $pointer', ({ json, pointer, op }) => {
    const problem = problemOf(() => run(op ?? 'createUser', 'application/json', json));
    expect(problem.status).toBe(400);
    expect(problem.errors).toContainEqual({ pointer, detail: 'contains a lone UTF-16 surrogate' });
  });

  // Found by `apikit conform --fuzz`: the recursive scan overflowed the stack (a 500).
  it.each([
    {
      name: 'arrays',
      json: `{"name":${'['.repeat(50_000)}${']'.repeat(50_000)},"email":"a@b.io"}`,
    },
    {
      name: 'objects',
      json: `{"name":${'{"a":'.repeat(15_000)}1${'}'.repeat(15_000)},"email":"a@b.io"}`,
    },
  ])('refuses a value of $name nested far too deep with 400, not a stack overflow', ({ json }) => {
    const problem = problemOf(() => run('createUser', 'application/json', json));
    expect(problem.status).toBe(400);
    expect(problem.errors?.[0]?.pointer).toBe('#/name');
  });

  it('reports lone surrogates in document order', () => {
    const json =
      '{"product":"\\ud800","categoryId":1,"items":[{"product":"\\udc00","quantity":1}]}';
    const problem = problemOf(() => run('createUserOrder', 'application/json', json));
    expect(problem.errors?.map((e) => e.pointer)).toEqual(['#/product', '#/items/0/product']);
  });

  it('accepts an escaped surrogate pair', () => {
    const body = run(
      'createUser',
      'application/json',
      '{"name":"\\ud83d\\ude00","email":"a@b.io"}',
    );
    expect(body).toEqual({ name: '😀', email: 'a@b.io' });
  });
});

describe('BodyParser.parse: __proto__ and other awkward keys', () => {
  it.each([
    {
      name: 'createUser',
      op: 'createUser',
      json: '{"name":"a","email":"a@b.io","__proto__":{"admin":true}}',
    },
    { name: 'updateUser', op: 'updateUser', json: '{"__proto__":{"status":"ACTIVE"}}' },
    { name: 'a bodiless action', op: 'activateUser', json: '{"__proto__":{}}' },
    {
      name: 'an order item',
      op: 'createUserOrder',
      json: '{"product":"p","categoryId":1,"items":[{"product":"x","quantity":1,"__proto__":{"q":1}}]}',
    },
  ])(
    'refuses a __proto__ key ($name) as an unknown property, polluting nothing',
    ({ op, json }) => {
      const problem = problemOf(() => run(op, 'application/json', json));
      expect(problem.status).toBe(400);
      expect(problem.errors?.map((e) => e.pointer)).toContainEqual(
        expect.stringMatching(/\/__proto__$/),
      );
      expect(({} as Record<string, unknown>).admin).toBeUndefined();
      expect(Object.prototype).not.toHaveProperty('status');
    },
  );

  it('refuses constructor and prototype keys as unknown properties', () => {
    const problem = problemOf(() =>
      run('updateUser', 'application/json', '{"constructor":{"prototype":{"x":1}},"prototype":1}'),
    );
    expect(problem.errors?.map((e) => e.pointer).sort()).toEqual(['#/constructor', '#/prototype']);
  });

  it('escapes / and ~ of an unknown key in its pointer', () => {
    const problem = problemOf(() => run('updateUser', 'application/json', '{"a/b~c":1}'));
    expect(problem.errors?.map((e) => e.pointer)).toEqual(['#/a~1b~0c']);
  });
});

describe('BodyParser.parse: the optional bodies of the actions', () => {
  const actions = [
    'activateUser',
    'cancelOrder',
    'blockUser',
    'unblockUser',
    'resetData',
    'assignUserRole',
  ];

  it.each(actions)('%s takes no body, an empty body or {}', (op) => {
    expect(run(op, null, null)).toBeUndefined();
    expect(run(op, null, '')).toBeUndefined();
    expect(run(op, 'application/json', '')).toBeUndefined();
    expect(run(op, 'application/json', '{}')).toEqual({});
    expect(run(op, 'application/json', ' { } ')).toEqual({});
  });

  it.each([
    { name: 'a property', json: '{"force":true}' },
    { name: 'an array', json: '[]' },
    { name: 'null', json: 'null' },
    { name: 'a number', json: '0' },
    { name: 'a string', json: '""' },
  ])('refuses $name with 400', ({ json }) => {
    for (const op of actions) {
      const problem = problemOf(() => run(op, 'application/json', json));
      expect(problem.status, op).toBe(400);
      expect(problem.errors?.length, op).toBeGreaterThan(0);
    }
  });

  it('still refuses malformed JSON in an action body', () => {
    expect(problemOf(() => run('cancelOrder', 'application/json', '{')).slug).toBe(
      'malformed-json',
    );
  });
});

describe('describe (the detail of a 400)', () => {
  it.each([
    { name: 'no entries', errors: [], expected: 'The request is invalid' },
    {
      name: 'one entry',
      errors: [{ pointer: '#/name', detail: 'is required' }],
      expected: '#/name is required',
    },
    {
      name: 'three entries',
      errors: [
        { pointer: '#/name', detail: 'is required' },
        { pointer: '#/age', detail: 'must be >= 18' },
        { pointer: '#/x', detail: 'is not a known property' },
      ],
      expected: '#/name is required (and 2 more)',
    },
  ])('$name', ({ errors, expected }) => {
    expect(describeErrors(errors)).toBe(expected);
  });
});
