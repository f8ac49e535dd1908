import { describe, expect, it } from 'vitest';
import type { RecordedRequest, RecordedResponse } from './interaction-file.js';
import { interactionKey, shapeOf, shortHash } from './interaction-shape.js';

const request = (over: Partial<RecordedRequest> = {}): RecordedRequest => ({
  method: 'GET',
  path: '/api/v1/users/1',
  query: [],
  headers: { authorization: 'Bearer <access-token>' },
  ...over,
});
const response = (over: Partial<RecordedResponse> = {}): RecordedResponse => ({
  status: 200,
  headers: { 'content-type': 'application/json', etag: '"a"' },
  body: { id: 1, name: 'Ada', age: null, tags: ['x'] },
  ...over,
});

describe('shapeOf', () => {
  it('names fields (sorted) and JSON types, never values', () => {
    expect(shapeOf({ b: 1, a: 'x', c: null, d: true })).toBe(
      '{"a":string,"b":number,"c":null,"d":boolean}',
    );
    expect(shapeOf({ a: 'x', b: 1 })).toBe(shapeOf({ b: 2, a: 'y' }));
    expect(shapeOf(undefined)).toBe('none');
  });

  it('takes an array by its items’ shapes, each once, whatever the length', () => {
    expect(shapeOf([{ id: 1 }, { id: 2 }, { id: 3 }])).toBe(shapeOf([{ id: 9 }]));
    expect(shapeOf([1, 'a', 2])).toBe('[number|string]');
    expect(shapeOf([])).toBe('[]');
    expect(shapeOf([{ id: 1 }])).not.toBe(shapeOf([{ id: '1' }]));
  });

  it('recurses into nested objects and arrays', () => {
    expect(shapeOf({ page: { content: [{ id: 1, items: [{ n: 1 }] }] } })).toBe(
      '{"page":{"content":[{"id":number,"items":[{"n":number}]}]}}',
    );
  });
});

describe('interactionKey', () => {
  it('is operationId, status and a six-digit hash', () => {
    expect(interactionKey('getUser', request(), response())).toMatch(/^getUser 200 [0-9a-f]{6}$/);
  });

  it('ignores the values of headers, query parameters and bodies', () => {
    const key = interactionKey('getUser', request(), response());
    expect(
      interactionKey(
        'getUser',
        request({ path: '/api/v1/users/2', headers: { authorization: 'Bearer other' } }),
        response({
          headers: { 'content-type': 'text/json', etag: '"b"' },
          body: { id: 2, name: 'Bo', age: null, tags: ['y', 'z'] },
        }),
      ),
    ).toBe(key);
  });

  it('changes with a parameter’s name, a header’s presence, a field or its type, the status', () => {
    const key = interactionKey('getUser', request(), response());
    const others = [
      interactionKey('getUser', request({ query: [['expand', 'orders']] }), response()),
      interactionKey('getUser', request({ headers: {} }), response()),
      interactionKey('getUser', request(), response({ headers: { 'content-type': 'x' } })),
      interactionKey(
        'getUser',
        request(),
        response({ body: { id: 1, name: 'Ada', age: 3, tags: [] } }),
      ),
      interactionKey(
        'getUser',
        request(),
        response({ body: { id: '1', name: 'Ada', age: null, tags: ['x'] } }),
      ),
      interactionKey('getUser', request(), response({ status: 304 })),
    ];
    for (const other of others) expect(other).not.toBe(key);
    expect(new Set(others).size).toBe(others.length);
  });

  it('hashes the same on every run (FNV-1a)', () => {
    expect(shortHash('')).toBe('811c9d');
    expect(shortHash('a')).toBe('e40c29');
  });
});
