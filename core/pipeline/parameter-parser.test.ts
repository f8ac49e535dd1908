import { beforeAll, describe, expect, it } from 'vitest';
import { createAjv } from '../../spec/create-ajv.js';
import { loadSpec } from '../../spec/load-spec.js';
import { listOperations, type SpecOperation } from '../../spec/operations.js';
import { ParameterParser } from './parameter-parser.js';

const parsers = new Map<string, ParameterParser>();
let operations: SpecOperation[];
const ajv = createAjv();

beforeAll(async () => {
  operations = listOperations(await loadSpec());
});

/** The ParameterParser of an operation, compiled on first use (compiling every schema is slow). */
function parserOf(operationId: string): ParameterParser {
  let parser = parsers.get(operationId);
  if (!parser) {
    const op = operations.find((o) => o.operationId === operationId);
    if (!op) throw new Error(`no operation ${operationId}`);
    parser = new ParameterParser(op, ajv);
    parsers.set(operationId, parser);
  }
  return parser;
}

function parse(
  operationId: string,
  {
    path = {},
    query = '',
    headers = {},
  }: {
    path?: Record<string, string>;
    query?: string;
    headers?: Record<string, string>;
  } = {},
) {
  return parserOf(operationId).parse(path, query, new Headers(headers));
}

const pointers = (result: ReturnType<typeof parse>) => result.errors.map((e) => e.pointer).sort();

describe('ParameterParser: query of listUsers', () => {
  it('applies the defaults when nothing is sent', () => {
    const result = parse('listUsers');
    expect(result.errors).toEqual([]);
    expect(result.query).toEqual({ page: 0, size: 20 });
  });

  it.each([
    { name: 'page and size', query: 'page=2&size=50', expected: { page: 2, size: 50 } },
    { name: 'the smallest values', query: 'page=0&size=1', expected: { page: 0, size: 1 } },
    { name: 'the largest size', query: 'size=100', expected: { page: 0, size: 100 } },
    {
      name: 'the largest page (int32)',
      query: 'page=2147483647',
      expected: { page: 2147483647, size: 20 },
    },
    {
      name: 'a status',
      query: 'status=BLOCKED',
      expected: { page: 0, size: 20, status: 'BLOCKED' },
    },
    { name: 'one sort', query: 'sort=name', expected: { page: 0, size: 20, sort: ['name'] } },
    {
      name: 'sort with a direction (comma kept in one item)',
      query: 'sort=name,desc',
      expected: { page: 0, size: 20, sort: ['name,desc'] },
    },
    {
      name: 'sort with an encoded comma',
      query: 'sort=age%2Casc',
      expected: { page: 0, size: 20, sort: ['age,asc'] },
    },
    {
      name: 'sort repeated (form, explode true)',
      query: 'sort=name&sort=id,desc',
      expected: { page: 0, size: 20, sort: ['name', 'id,desc'] },
    },
  ])('accepts $name', ({ query, expected }) => {
    const result = parse('listUsers', { query });
    expect(result.errors).toEqual([]);
    expect(result.query).toEqual(expected);
  });

  it.each([
    { name: 'a leading zero', query: 'page=05' },
    { name: 'an exponent', query: 'page=1e3' },
    { name: 'a fraction', query: 'page=20.0' },
    { name: 'a plus sign (encoded)', query: 'page=%2B5' },
    { name: 'a plus sign (a space once decoded)', query: 'page=+5' },
    { name: 'a minus sign', query: 'page=-1' },
    { name: 'an empty value', query: 'page=' },
    { name: 'a name without a value', query: 'page' },
    { name: 'hex', query: 'page=0x10' },
    { name: 'words', query: 'page=one' },
    { name: 'trailing space', query: 'page=1%20' },
    { name: 'more than int32', query: 'page=2147483648' },
    { name: 'beyond 2^53', query: 'page=9007199254740993' },
    { name: 'given twice', query: 'page=1&page=2' },
  ])('refuses page with $name ($query) at #/query/page', ({ query }) => {
    const result = parse('listUsers', { query });
    expect(result.errors.length).toBeGreaterThan(0);
    expect(new Set(pointers(result))).toEqual(new Set(['#/query/page']));
    expect(result.query).not.toHaveProperty('page');
  });

  it.each([
    { name: 'size over 100', query: 'size=101', pointer: '#/query/size' },
    { name: 'size 0', query: 'size=0', pointer: '#/query/size' },
    { name: 'an unknown status', query: 'status=active', pointer: '#/query/status' },
    { name: 'an empty status', query: 'status=', pointer: '#/query/status' },
    { name: 'status twice', query: 'status=ACTIVE&status=BLOCKED', pointer: '#/query/status' },
    { name: 'an unknown parameter', query: 'foo=1', pointer: '#/query/foo' },
    { name: 'a parameter of another operation', query: 'expand=user', pointer: '#/query/expand' },
    { name: 'a near miss of a known name', query: 'Page=1', pointer: '#/query/Page' },
    {
      name: 'a bearer token in the query',
      query: 'access_token=x',
      pointer: '#/query/access_token',
    },
  ])('refuses $name at $pointer', ({ query, pointer }) => {
    expect(pointers(parse('listUsers', { query }))).toEqual([pointer]);
  });

  it.each([
    { name: 'an unknown sort field', query: 'sort=password' },
    { name: 'an unknown direction', query: 'sort=name,up' },
    { name: 'an empty sort', query: 'sort=' },
    { name: 'more than five sort keys', query: 'sort=id&sort=id&sort=id&sort=id&sort=id&sort=id' },
  ])('refuses $name under #/query/sort', ({ query }) => {
    const result = parse('listUsers', { query });
    expect(result.errors.length).toBeGreaterThan(0);
    for (const error of result.errors) expect(error.pointer).toMatch(/^#\/query\/sort(\/|$)/);
  });

  it('reports an unknown parameter only once however often it is sent', () => {
    expect(pointers(parse('listUsers', { query: 'foo=1&foo=2' }))).toEqual(['#/query/foo']);
  });

  it('reports every error at once', () => {
    const result = parse('listUsers', {
      query: 'page=05&size=500&status=nope&foo=1&bar=&sort=name,sideways',
    });
    expect(pointers(result).map((p) => p.replace(/^#\/query\/sort\/.*/, '#/query/sort'))).toEqual([
      '#/query/bar',
      '#/query/foo',
      '#/query/page',
      '#/query/size',
      '#/query/sort',
      '#/query/status',
    ]);
    for (const error of result.errors) expect(error.detail).not.toBe('');
  });
});

describe('ParameterParser: expand of getOrder (form, explode false)', () => {
  it.each([
    { name: 'one name', query: 'expand=user', expected: ['user'] },
    { name: 'two names, comma-separated', query: 'expand=user,items', expected: ['user', 'items'] },
    { name: 'an encoded comma', query: 'expand=items%2Cuser', expected: ['items', 'user'] },
    { name: 'the names repeated', query: 'expand=user&expand=items', expected: ['user', 'items'] },
    {
      name: 'both forms mixed',
      query: 'expand=items&expand=user,items',
      expected: ['items', 'user'],
    },
    { name: 'a name twice', query: 'expand=user,user', expected: ['user'] },
    { name: 'a name repeated twice', query: 'expand=user&expand=user', expected: ['user'] },
  ])('accepts $name', ({ query, expected }) => {
    const result = parse('getOrder', { path: { id: '1' }, query });
    expect(result.errors).toEqual([]);
    expect(result.query).toEqual({ expand: expected });
  });

  it('leaves expand out when not sent (no default)', () => {
    expect(parse('getOrder', { path: { id: '1' } }).query).toEqual({});
  });

  it.each([
    { name: 'an unknown name', query: 'expand=owner' },
    { name: 'an empty value', query: 'expand=' },
    { name: 'an empty repetition', query: 'expand=user&expand=' },
    { name: 'a trailing comma', query: 'expand=user,' },
    { name: 'a different case', query: 'expand=User' },
  ])('refuses $name under #/query/expand', ({ query }) => {
    const result = parse('getOrder', { path: { id: '1' }, query });
    expect(result.errors.length).toBeGreaterThan(0);
    for (const error of result.errors) expect(error.pointer).toMatch(/^#\/query\/expand(\/|$)/);
  });
});

describe('ParameterParser: path ids', () => {
  it.each([
    { raw: '1', expected: 1 },
    { raw: '42', expected: 42 },
    { raw: '9007199254740991', expected: 9007199254740991 },
    { raw: '%31%32', expected: 12 },
  ])('converts $raw to $expected', ({ raw, expected }) => {
    const result = parse('getUser', { path: { id: raw } });
    expect(result.errors).toEqual([]);
    expect(result.path).toEqual({ id: expected });
  });

  it.each([
    { name: 'zero', raw: '0' },
    { name: 'negative', raw: '-1' },
    { name: 'a word', raw: 'abc' },
    { name: 'undefined as text', raw: 'undefined' },
    { name: 'a file extension', raw: '1.json' },
    { name: 'a leading zero', raw: '01' },
    { name: 'an exponent', raw: '1e3' },
    { name: 'a fraction', raw: '1.0' },
    { name: 'beyond 2^53-1', raw: '9007199254740992' },
    { name: 'a huge number', raw: '99999999999999999999999' },
    { name: 'an encoded slash', raw: '1%2F2' },
    { name: 'a malformed escape', raw: '%E0%A4%A' },
    { name: 'an encoded space', raw: '%201' },
  ])('refuses $name ($raw) at #/path/id', ({ raw }) => {
    const result = parse('getUser', { path: { id: raw } });
    expect(pointers(result)).toEqual(['#/path/id']);
    expect(result.path).toEqual({});
  });

  it('reports a missing path parameter as required', () => {
    expect(parse('getUser').errors).toEqual([{ pointer: '#/path/id', detail: 'is required' }]);
  });

  it('reports every path and query error of an operation at once', () => {
    const result = parse('getUserOrder', {
      path: { userId: 'x', orderId: '0' },
      query: 'expand=items',
    });
    expect(pointers(result)).toEqual(['#/path/orderId', '#/path/userId', '#/query/expand']);
  });
});

describe('ParameterParser: headers', () => {
  it.each([
    { name: 'one character', key: 'k', ok: true },
    { name: '255 characters', key: 'k'.repeat(255), ok: true },
    { name: 'a UUID', key: '1b4e28ba-2fa1-11d2-883f-0016d3cca427', ok: true },
    { name: '256 characters', key: 'k'.repeat(256), ok: false },
    { name: 'an empty value', key: '', ok: false },
  ])('Idempotency-Key with $name: ok=$ok', ({ key, ok }) => {
    const result = parse('createUser', { headers: { 'Idempotency-Key': key } });
    if (ok) {
      expect(result.errors).toEqual([]);
      expect(result.header).toEqual({ 'Idempotency-Key': key });
    } else {
      expect(pointers(result)).toEqual(['#/header/Idempotency-Key']);
    }
  });

  it('reads header parameters case-insensitively', () => {
    const result = parse('createUser', { headers: { 'idempotency-key': 'abc' } });
    expect(result.header).toEqual({ 'Idempotency-Key': 'abc' });
  });

  it('ignores headers the operation does not declare', () => {
    const result = parse('listUsers', { headers: { 'Idempotency-Key': 'k', 'X-Anything': '1' } });
    expect(result.errors).toEqual([]);
    expect(result.header).toEqual({});
  });

  it('takes If-None-Match and If-Modified-Since as given', () => {
    const result = parse('getUser', {
      path: { id: '1' },
      headers: {
        'If-None-Match': 'W/"a", "b"',
        'If-Modified-Since': 'Sat, 10 Jan 2026 08:00:00 GMT',
      },
    });
    expect(result.header).toEqual({
      'If-None-Match': 'W/"a", "b"',
      'If-Modified-Since': 'Sat, 10 Jan 2026 08:00:00 GMT',
    });
  });
});

describe('ParameterParser: operations without query parameters', () => {
  it.each([
    { operationId: 'createUser', query: 'page=1' },
    { operationId: 'login', query: 'next=/' },
    { operationId: 'listRoles', query: 'x=' },
    { operationId: 'resetData', query: 'force=true' },
  ])('refuses any query parameter on $operationId ($query)', ({ operationId, query }) => {
    const name = query.split('=')[0];
    expect(pointers(parse(operationId, { query }))).toEqual([`#/query/${name}`]);
  });

  it('accepts an empty query string and a bare ?&', () => {
    expect(parse('listRoles', { query: '' }).errors).toEqual([]);
    expect(parse('listRoles', { query: '&' }).errors).toEqual([]);
  });
});
