import { beforeAll, describe, expect, it } from 'vitest';
import type { OpenAPIV3 } from 'openapi-types';
import { loadSpec, type OpenApiDocument } from '../../spec/load-spec.js';
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
    'Last-Modified',
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
    'If-Modified-Since',
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

/**
 * The spec documents the two lists three times (the CORS convention in `info.description`, the
 * header component's description and its example); all must name exactly what the server sends,
 * in its order, so that the contract and the server cannot drift apart again (decision 0074).
 */
describe('the CORS header lists as the spec documents them', () => {
  let spec: OpenApiDocument;
  beforeAll(async () => {
    spec = await loadSpec();
  });

  const sent = {
    allowed: list(corsHeaders('*', ORIGIN, { allow: 'GET' })['Access-Control-Allow-Headers']),
    exposed: list(corsHeaders('*', ORIGIN)['Access-Control-Expose-Headers']),
  };
  const component = (name: string) =>
    spec.components?.headers?.[name] as OpenAPIV3.HeaderObject | undefined;
  const codeSpans = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
  const cases = [
    {
      kind: 'allowed' as const,
      name: 'AccessControlAllowHeaders',
      from: /Allowed request headers:([^]*?)\. Exposed:/,
    },
    {
      kind: 'exposed' as const,
      name: 'AccessControlExposeHeaders',
      from: /Exposed:([^]*?)\. `Vary/,
    },
  ];

  it.each(cases)('the $kind headers: the component example', ({ kind, name }) => {
    expect(list(String(component(name)?.example))).toEqual(sent[kind]);
  });

  it.each(cases)('the $kind headers: the component description', ({ kind, name }) => {
    expect(codeSpans(component(name)?.description ?? '')).toEqual(sent[kind]);
  });

  it.each(cases)('the $kind headers: the CORS convention in info.description', ({ kind, from }) => {
    const text = from.exec(spec.info.description ?? '')?.[1];
    expect(text, `no CORS ${kind} list in info.description`).toBeDefined();
    expect(codeSpans(text ?? '')).toEqual(sent[kind]);
  });
});
