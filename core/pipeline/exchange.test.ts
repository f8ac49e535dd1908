import { describe, expect, it } from 'vitest';
import { createExchange, inputOf, routeOf, selectedOf } from './exchange.js';

const exchange = (method: string, path: string, headers: Record<string, string> = {}) =>
  createExchange({ method, path, query: '', headers: new Headers(headers), body: null });

describe('createExchange', () => {
  it('knows the method in upper case, the path below the base and the canonical instance', () => {
    expect(exchange('get', '/api/users/7')).toMatchObject({
      method: 'GET',
      relative: '/users/7',
      instance: '/api/v1/users/7',
      tokenPresented: false,
    });
  });

  it('keeps a path outside the base as its instance', () => {
    expect(exchange('GET', '/healthz')).toMatchObject({
      relative: undefined,
      instance: '/healthz',
    });
  });

  it('echoes a sane X-Request-Id and makes one up otherwise', () => {
    expect(exchange('GET', '/healthz', { 'X-Request-Id': 'abc-1' }).requestId).toBe('abc-1');
    expect(exchange('GET', '/healthz', { 'X-Request-Id': 'a b' }).requestId).toMatch(
      /^[0-9a-f-]{36}$/,
    );
  });
});

describe('routeOf, selectedOf, inputOf', () => {
  it('throw (a wiring bug, a 500) when asked before their step ran', () => {
    const x = exchange('GET', '/api/v1/users');
    expect(() => routeOf(x)).toThrow(/no route/);
    expect(() => selectedOf(x)).toThrow(/no operation/);
    expect(() => inputOf(x)).toThrow(/not parsed/);
  });
});
