import { beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../spec/load-spec.js';
import { listOperations, type SpecOperation } from '../../spec/operations.js';
import { ResponseValidator } from '../../spec/response-validator.js';
import type { Exchange } from '../http/target-client.js';
import { headerFailures, isUriReference, judgeExchange, parseLinkHeader } from './fuzz-oracles.js';
import { matchesWritten, readBackOperation, writtenMismatches } from './fuzz-read-back.js';

let operations: SpecOperation[];
let validator: ResponseValidator;
beforeAll(async () => {
  const spec = await loadSpec();
  operations = listOperations(spec);
  validator = new ResponseValidator(spec);
});
const op = (id: string) => operations.find((o) => o.operationId === id)!;

const USER = {
  id: 7,
  name: 'Ada',
  email: 'ada@example.com',
  age: 36,
  status: 'ACTIVE',
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
};

function exchange(status: number, headers: Record<string, string>, body = ''): Exchange {
  return {
    request: { method: 'GET', url: 'http://127.0.0.1/api/v1/users/7', headers: {} },
    response: { status, headers, body, durationMs: 1 },
    headers: new Headers(headers),
  };
}

const problem = (status: number) =>
  JSON.stringify({
    type: 'urn:apikit:problem:validation-failed',
    title: 'Request validation failed',
    status,
    detail: 'x',
    instance: '/api/v1/users/7',
    requestId: 'r',
    errors: [{ pointer: '#/path/id', detail: 'x' }],
  });

describe('judgeExchange: the per-answer oracles', () => {
  it('a 5xx fails no_server_error, whatever its body', () => {
    const oracles = judgeExchange(
      validator,
      op('getUser'),
      exchange(500, { 'content-type': 'text/plain' }, 'boom'),
    ).map((f) => f.oracle);
    expect(oracles).toContain('no_server_error');
    expect(oracles).toContain('response_conformance');
  });

  it('an answer the spec does not document fails response_conformance only', () => {
    const failures = judgeExchange(
      validator,
      op('getUser'),
      exchange(400, { 'content-type': 'application/json' }, '{"error":"bad"}'),
    );
    expect(failures.length).toBeGreaterThan(0);
    expect(new Set(failures.map((f) => f.oracle))).toEqual(new Set(['response_conformance']));
  });

  it('a documented problem passes every oracle', () => {
    const ok = exchange(
      400,
      {
        'content-type': 'application/problem+json',
        'cache-control': 'no-store',
        'x-request-id': 'r',
      },
      problem(400),
    );
    expect(judgeExchange(validator, op('getUser'), ok).map((f) => f.message)).toEqual([]);
  });
});

describe('headerFailures: the header-injection oracle', () => {
  it('fails a response that carries the injected header, whatever else', () => {
    expect(headerFailures(new Headers({ 'X-Apikit-Fuzz': 'crlf' }))[0]).toMatch(/split a header/);
  });

  it.each([
    ['/api/v1/users/7', true],
    ['/api/v1/users?page=1&sort=name%2Casc', true],
    ['https://example.com/a?b=c#d', true],
    ['/api/v1/users/a b', false],
    ['/api/v1/users/"x"', false],
    ['/api/v1/users/%zz', false],
    ['/api/v1/users/é', false],
    ['/api/v1/users/<x>', false],
  ])('isUriReference(%j) is %s', (text, ok) => expect(isUriReference(text)).toBe(ok));

  it('parses well-formed Link headers (RFC 8288)', () => {
    expect(
      parseLinkHeader(
        '</api/v1/users?page=0&size=2>; rel="first", </api/v1/users?page=3>;rel=last',
      ),
    ).toEqual([
      { uri: '/api/v1/users?page=0&size=2', params: { rel: 'first' } },
      { uri: '/api/v1/users?page=3', params: { rel: 'last' } },
    ]);
    expect(parseLinkHeader('<https://x.example/a>; rel="a b"; title="x\\"y"')).toEqual([
      { uri: 'https://x.example/a', params: { rel: 'a b', title: 'x"y' } },
    ]);
  });

  it.each([
    '/api/v1/users; rel="next"',
    '</api/v1/users?q=a b>; rel="next"',
    '</a>; rel="next", <https://evil.example/',
    '</a>; r el=x',
    '</a>; rel="unterminated',
    '</a> junk',
    '',
  ])('refuses the malformed Link %j', (link) => {
    expect(parseLinkHeader(link)).toBeUndefined();
    if (link) expect(headerFailures(new Headers({ Link: link }))).toHaveLength(1);
  });

  it('fails a Location that is no URI reference', () => {
    expect(
      headerFailures(new Headers({ Location: '/api/v1/users/7 X-Apikit-Fuzz: x' })),
    ).toHaveLength(1);
    expect(headerFailures(new Headers({ Location: '/api/v1/users/7' }))).toEqual([]);
  });
});

describe('read-back', () => {
  it('finds the GET that reads a write back', () => {
    expect(readBackOperation(op('updateUser'), operations)?.operationId).toBe('getUser');
    expect(readBackOperation(op('deleteUserOrder'), operations)?.operationId).toBe('getUserOrder');
    expect(readBackOperation(op('activateUser'), operations)?.operationId).toBe('getUser');
    expect(readBackOperation(op('cancelOrder'), operations)?.operationId).toBe('getOrder');
    expect(readBackOperation(op('blockUser'), operations)).toBeUndefined();
    expect(readBackOperation(op('logout'), operations)).toBeUndefined();
  });

  it('matchesWritten: scalars and arrays equal, objects as a merge patch', () => {
    expect(matchesWritten(5, 5)).toBe(true);
    expect(matchesWritten(-0, 0)).toBe(true);
    expect(matchesWritten('e\u0301', 'é')).toBe(false);
    expect(matchesWritten([1, 2], [1, 2, 3])).toBe(false);
    expect(matchesWritten({ a: 1, b: null }, { a: 1, c: 2 })).toBe(true);
    expect(matchesWritten({ a: 1 }, { a: 2 })).toBe(false);
  });

  it('judges written fields and the write’s answer against the read-back', () => {
    const read = JSON.stringify(USER);
    const write = (body: string, answer = read) =>
      writtenMismatches(op('updateUser'), op('getUser'), body, answer, read);
    expect(write('{"age":36,"name":"Ada"}')).toEqual([]);
    // Read-only fields are accepted and ignored: not judged as written.
    expect(write('{"id":99,"status":"BLOCKED"}')).toEqual([]);
    expect(write('{"age":37}')).toEqual(['#/age was written as 37 but reads back as 36']);
    expect(write('{}', JSON.stringify({ ...USER, name: 'Bob' }))).toEqual([
      '#/name answered "Bob" by the write but reads back as "Ada"',
    ]);
    expect(
      writtenMismatches(op('updateUser'), op('getUser'), '{"name":"A"}', '', '{"id":7}'),
    ).toEqual(['#/name was written but the read-back leaves it out']);
  });
});
