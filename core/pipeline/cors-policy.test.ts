import { describe, expect, it } from 'vitest';
import { corsHeaders } from './cors-policy.js';

const ORIGIN = 'https://app.example';
const list = (value: string | undefined) => (value ?? '').split(',').map((s) => s.trim());

describe('corsHeaders', () => {
  it.each([
    { name: 'no Origin, any allowed', origins: '*' as const, origin: null },
    { name: 'no Origin, a list', origins: [ORIGIN], origin: null },
    { name: 'an empty Origin', origins: '*' as const, origin: '' },
    { name: 'an origin not on the list', origins: [ORIGIN], origin: 'https://evil.example' },
    { name: 'a scheme that differs', origins: [ORIGIN], origin: 'http://app.example' },
    { name: 'an empty list', origins: [], origin: ORIGIN },
  ])('adds nothing for $name', ({ origins, origin }) => {
    expect(corsHeaders(origins, origin)).toEqual({});
    expect(corsHeaders(origins, origin, { allow: 'GET, OPTIONS' })).toEqual({});
  });

  it('allows any origin with * and no Vary', () => {
    const headers = corsHeaders('*', ORIGIN);
    expect(headers['Access-Control-Allow-Origin']).toBe('*');
    expect(headers).not.toHaveProperty('Vary');
  });

  it('echoes a listed origin with Vary: Origin', () => {
    const headers = corsHeaders(['https://other.example', ORIGIN], ORIGIN);
    expect(headers['Access-Control-Allow-Origin']).toBe(ORIGIN);
    expect(headers['Vary']).toBe('Origin');
  });

  it.each([
    'ETag',
    'Location',
    'Link',
    'Retry-After',
    'RateLimit',
    'RateLimit-Policy',
    'X-Request-Id',
  ])('exposes %s on a simple response', (header) => {
    const headers = corsHeaders('*', ORIGIN);
    expect(list(headers['Access-Control-Expose-Headers'])).toContain(header);
    expect(headers).not.toHaveProperty('Access-Control-Allow-Methods');
  });

  it.each([
    'Authorization',
    'Content-Type',
    'If-Match',
    'If-None-Match',
    'Idempotency-Key',
    'X-Request-Id',
  ])('allows %s on a preflight', (header) => {
    const headers = corsHeaders('*', ORIGIN, { allow: 'GET, HEAD, OPTIONS' });
    expect(list(headers['Access-Control-Allow-Headers'])).toContain(header);
  });

  it('answers a preflight with the route methods and a max age, not the exposed headers', () => {
    const allow = 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS';
    const headers = corsHeaders([ORIGIN], ORIGIN, { allow });
    expect(headers).toMatchObject({
      'Access-Control-Allow-Origin': ORIGIN,
      'Access-Control-Allow-Methods': allow,
      Vary: 'Origin',
    });
    expect(Number(headers['Access-Control-Max-Age'])).toBeGreaterThan(0);
    expect(headers).not.toHaveProperty('Access-Control-Expose-Headers');
    expect(headers).not.toHaveProperty('Access-Control-Allow-Credentials');
  });
});
