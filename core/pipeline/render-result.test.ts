import { describe, expect, it } from 'vitest';
import { ApiProblem } from '../domain/api-problem.js';
import type { Resource } from '../domain/resource.js';
import { httpDate, strongETag, weakETag } from './entity-tag.js';
import type { OperationResult } from './handlers/operation-handler.js';
import { checkPreconditions, renderResult } from './render-result.js';

const USER = {
  id: 2,
  name: 'Bob',
  email: 'bob@example.com',
  updatedAt: '2026-01-10T08:00:00.500Z',
};
const USER_JSON = JSON.stringify(USER);
const ETAG = strongETag(USER_JSON);
const LAST_MODIFIED = 'Sat, 10 Jan 2026 08:00:00 GMT';
const RESOURCE: OperationResult = {
  status: 200,
  body: USER,
  etag: 'strong',
  lastModified: USER.updatedAt,
};
const PAGE = { content: [USER], page: 0, size: 20, totalElements: 1, totalPages: 1 };
const LIST: OperationResult = { status: 200, body: PAGE, etag: 'weak' };

describe('renderResult: headers of an answer', () => {
  it('gives a single resource its strong ETag of the exact bytes and Last-Modified', () => {
    expect(renderResult(RESOURCE, 'GET', new Headers())).toEqual({
      status: 200,
      headers: {
        'Content-Type': 'application/json',
        'Cache-Control': 'private, no-cache',
        ETag: ETAG,
        'Last-Modified': LAST_MODIFIED,
      },
      body: USER_JSON,
    });
  });

  it('gives a list a weak ETag and no Last-Modified', () => {
    const rendered = renderResult(LIST, 'GET', new Headers());
    expect(rendered.headers.ETag).toBe(weakETag(JSON.stringify(PAGE)));
    expect(rendered.headers).not.toHaveProperty('Last-Modified');
  });

  it('puts Location under /api/v1', () => {
    const rendered = renderResult(
      {
        status: 201,
        body: USER,
        etag: 'strong',
        lastModified: USER.updatedAt,
        location: '/users/2',
      },
      'POST',
      new Headers(),
    );
    expect(rendered.status).toBe(201);
    expect(rendered.headers.Location).toBe('/api/v1/users/2');
    expect(rendered.headers.ETag).toBe(ETAG);
  });

  it.each([
    { name: 'catalog', cacheControl: 'private, max-age=3600' },
    { name: 'auth', cacheControl: 'no-store' },
  ])('lets a handler choose Cache-Control ($name)', ({ cacheControl }) => {
    const rendered = renderResult({ ...RESOURCE, cacheControl }, 'GET', new Headers());
    expect(rendered.headers['Cache-Control']).toBe(cacheControl);
  });

  it('keeps extra headers of the handler (Link)', () => {
    const rendered = renderResult(
      { ...LIST, headers: { Link: '</x>; rel="first"' } },
      'GET',
      new Headers(),
    );
    expect(rendered.headers.Link).toBe('</x>; rel="first"');
  });

  it('sends no body, Content-Type or ETag for a 204', () => {
    expect(renderResult({ status: 204 }, 'DELETE', new Headers())).toEqual({
      status: 204,
      headers: { 'Cache-Control': 'private, no-cache' },
      body: null,
    });
  });

  it('sends no validators for a PUT answer without etag (RFC 9110 9.3.4)', () => {
    const rendered = renderResult({ status: 200, body: USER }, 'PUT', new Headers());
    expect(rendered.headers).not.toHaveProperty('ETag');
    expect(rendered.headers).not.toHaveProperty('Last-Modified');
  });

  it('changes the ETag when any byte of the representation changes', () => {
    const changed = renderResult(
      { ...RESOURCE, body: { ...USER, name: 'Bobby' } },
      'GET',
      new Headers(),
    );
    expect(changed.headers.ETag).not.toBe(ETAG);
  });
});

describe('renderResult: conditional GET and HEAD', () => {
  it.each<{
    name: string;
    result: OperationResult;
    headers: Record<string, string>;
    status: number;
  }>([
    {
      name: 'If-None-Match with the tag',
      result: RESOURCE,
      headers: { 'If-None-Match': ETAG },
      status: 304,
    },
    {
      name: 'If-None-Match with the weak form (weak compare)',
      result: RESOURCE,
      headers: { 'If-None-Match': `W/${ETAG}` },
      status: 304,
    },
    { name: 'If-None-Match: *', result: RESOURCE, headers: { 'If-None-Match': '*' }, status: 304 },
    {
      name: 'If-None-Match with a list holding the tag',
      result: RESOURCE,
      headers: { 'If-None-Match': `"a", ${ETAG}` },
      status: 304,
    },
    {
      name: 'If-None-Match with another tag',
      result: RESOURCE,
      headers: { 'If-None-Match': '"other"' },
      status: 200,
    },
    {
      name: 'If-Modified-Since the same second',
      result: RESOURCE,
      headers: { 'If-Modified-Since': LAST_MODIFIED },
      status: 304,
    },
    {
      name: 'If-Modified-Since later',
      result: RESOURCE,
      headers: { 'If-Modified-Since': 'Sun, 11 Jan 2026 00:00:00 GMT' },
      status: 304,
    },
    {
      name: 'If-Modified-Since earlier',
      result: RESOURCE,
      headers: { 'If-Modified-Since': 'Sat, 10 Jan 2026 07:59:59 GMT' },
      status: 200,
    },
    {
      name: 'If-Modified-Since not a date',
      result: RESOURCE,
      headers: { 'If-Modified-Since': 'never' },
      status: 200,
    },
    {
      name: 'a mismatching If-None-Match wins over a matching If-Modified-Since',
      result: RESOURCE,
      headers: { 'If-None-Match': '"other"', 'If-Modified-Since': LAST_MODIFIED },
      status: 200,
    },
    {
      name: 'a matching If-None-Match wins over an earlier If-Modified-Since',
      result: RESOURCE,
      headers: { 'If-None-Match': ETAG, 'If-Modified-Since': 'Thu, 01 Jan 1970 00:00:00 GMT' },
      status: 304,
    },
    {
      name: 'a weak list tag',
      result: LIST,
      headers: { 'If-None-Match': weakETag(JSON.stringify(PAGE)) },
      status: 304,
    },
    {
      name: 'a list with If-Modified-Since (no Last-Modified)',
      result: LIST,
      headers: { 'If-Modified-Since': 'Sun, 11 Jan 2026 00:00:00 GMT' },
      status: 200,
    },
    { name: 'no conditional headers', result: RESOURCE, headers: {}, status: 200 },
  ])('GET: $name -> $status', ({ result, headers, status }) => {
    const rendered = renderResult(result, 'GET', new Headers(headers));
    expect(rendered.status).toBe(status);
    if (status === 304) {
      expect(rendered.body).toBeNull();
      expect(rendered.headers).toEqual({
        ETag: rendered.headers.ETag,
        'Cache-Control': 'private, no-cache',
      });
      expect(rendered.headers.ETag).toMatch(/^(W\/)?"/);
    } else {
      expect(rendered.body).not.toBeNull();
    }
  });

  it('answers 304 to HEAD as to GET', () => {
    expect(renderResult(RESOURCE, 'HEAD', new Headers({ 'If-None-Match': ETAG })).status).toBe(304);
  });

  it('keeps the catalog Cache-Control on a 304', () => {
    const rendered = renderResult(
      { ...RESOURCE, cacheControl: 'private, max-age=3600' },
      'GET',
      new Headers({ 'If-None-Match': ETAG }),
    );
    expect(rendered.headers['Cache-Control']).toBe('private, max-age=3600');
  });

  it.each([
    { method: 'POST', status: 201 },
    { method: 'PATCH', status: 200 },
  ])('never answers 304 to $method', ({ method, status }) => {
    const rendered = renderResult(
      { ...RESOURCE, status },
      method,
      new Headers({ 'If-None-Match': ETAG, 'If-Modified-Since': LAST_MODIFIED }),
    );
    expect(rendered.status).toBe(status);
  });

  it('formats Last-Modified as an HTTP-date', () => {
    expect(renderResult(RESOURCE, 'GET', new Headers()).headers['Last-Modified']).toBe(
      httpDate(USER.updatedAt),
    );
  });
});

describe('checkPreconditions (unsafe methods)', () => {
  const current: Resource<unknown> = { body: USER, lastModified: USER.updatedAt };

  it.each<{ name: string; headers: Record<string, string> }>([
    { name: 'no conditional headers', headers: {} },
    { name: 'If-Match with the current tag', headers: { 'If-Match': ETAG } },
    { name: 'If-Match: *', headers: { 'If-Match': '*' } },
    { name: 'If-Match with a list holding the tag', headers: { 'If-Match': `"old", ${ETAG}` } },
    { name: 'If-None-Match with another tag', headers: { 'If-None-Match': '"other"' } },
  ])('passes an existing resource with $name', ({ headers }) => {
    expect(() => checkPreconditions(new Headers(headers), current)).not.toThrow();
  });

  it.each<{ name: string; headers: Record<string, string> }>([
    { name: 'If-Match with another tag', headers: { 'If-Match': '"other"' } },
    { name: 'If-Match with the weak form (strong compare)', headers: { 'If-Match': `W/${ETAG}` } },
    { name: 'If-Match with garbage', headers: { 'If-Match': 'nonsense' } },
    { name: 'If-None-Match: *', headers: { 'If-None-Match': '*' } },
    { name: 'If-None-Match with the tag', headers: { 'If-None-Match': ETAG } },
    { name: 'If-None-Match with the weak form', headers: { 'If-None-Match': `W/${ETAG}` } },
    {
      name: 'a matching If-Match but a matching If-None-Match',
      headers: { 'If-Match': ETAG, 'If-None-Match': ETAG },
    },
  ])('refuses an existing resource with $name: 412', ({ headers }) => {
    let caught: unknown;
    try {
      checkPreconditions(new Headers(headers), current);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(ApiProblem);
    expect((caught as ApiProblem).status).toBe(412);
    expect((caught as ApiProblem).slug).toBe('precondition-failed');
  });

  it.each<{ name: string; headers: Record<string, string>; fails: boolean }>([
    { name: 'If-Match: *', headers: { 'If-Match': '*' }, fails: true },
    { name: 'If-Match with a tag', headers: { 'If-Match': ETAG }, fails: true },
    { name: 'If-None-Match: * (create only)', headers: { 'If-None-Match': '*' }, fails: false },
    { name: 'no conditional headers', headers: {}, fails: false },
  ])('on an absent resource, $name: 412=$fails', ({ headers, fails }) => {
    const check = () => checkPreconditions(new Headers(headers), undefined);
    if (fails) expect(check).toThrow(ApiProblem);
    else expect(check).not.toThrow();
  });

  it('compares with the ETag a GET would have sent for the same body', () => {
    const get = renderResult({ status: 200, body: USER, etag: 'strong' }, 'GET', new Headers());
    expect(() =>
      checkPreconditions(new Headers({ 'If-Match': get.headers.ETag as string }), current),
    ).not.toThrow();
  });
});
