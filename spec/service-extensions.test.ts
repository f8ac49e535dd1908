import type { OpenAPIV3 } from 'openapi-types';
import { describe, expect, it } from 'vitest';
import { loadSpec } from './load-spec.js';
import { serverPath, serviceDeclaration } from './service-extensions.js';

const doc = (service: unknown, url?: string) =>
  ({
    'x-apikit-service': service,
    ...(url !== undefined ? { servers: [{ url }] } : {}),
  }) as unknown as OpenAPIV3.Document;

/** The backquoted names of the description's sentence after `label` up to its full stop. */
function listAfter(text: string, label: string): string[] {
  const start = text.indexOf(label);
  const sentence = text.slice(start + label.length, text.indexOf('.', start + label.length));
  return [...sentence.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);
}

describe('x-apikit-service', () => {
  it("declares the contract's served routes, request id, rate-limit headers and CORS lists", async () => {
    const spec = await loadSpec();
    const declared = serviceDeclaration(spec);
    expect(declared.servedRoutes).toEqual([
      { method: 'GET', path: '/healthz' },
      { method: 'GET', path: '/readyz' },
      { method: 'GET', path: '/openapi.json', contract: 'json' },
      { method: 'GET', path: '/openapi.yaml', contract: 'yaml' },
      { method: 'GET', path: '/docs' },
    ]);
    expect(declared).toMatchObject({
      requestId: 'X-Request-Id',
      problemRequestId: 'requestId',
      rateLimitHeaders: true,
      serializedWrites: true,
      reset: 'resetData',
    });
    expect(serverPath(spec)).toBe('/api/v1');
  });

  it('lists the CORS headers the description names in words', async () => {
    const spec = await loadSpec();
    const text = spec.info.description ?? '';
    const cors = serviceDeclaration(spec).cors;
    expect(cors?.allowHeaders).toEqual(listAfter(text, 'Allowed request headers:'));
    expect(cors?.exposeHeaders).toEqual(listAfter(text, 'Exposed:'));
    expect(cors?.exposeHeaders).toContain('Last-Modified');
  });

  it('declares nothing without it, and counts values of the wrong type as absent', () => {
    expect(serviceDeclaration(doc(undefined))).toEqual({
      servedRoutes: [],
      requestId: undefined,
      problemRequestId: undefined,
      rateLimitHeaders: false,
      cors: undefined,
      serializedWrites: false,
      reset: undefined,
    });
    const odd = serviceDeclaration(
      doc({
        servedRoutes: [{ method: 'get', path: '/a' }, { path: 'b' }, { method: 'GET', path: 1 }],
        requestId: 'X Request',
        rateLimitHeaders: 'yes',
        cors: { allowHeaders: ['A', 1] },
      }),
    );
    expect(odd).toMatchObject({
      servedRoutes: [{ method: 'GET', path: '/a' }],
      requestId: undefined,
      rateLimitHeaders: false,
      cors: undefined,
    });
  });

  it('reads the path a server URL declares after its variables', () => {
    expect(serverPath(doc({}, '{base_url}/api/v1'))).toBe('/api/v1');
    expect(serverPath(doc({}, 'https://petstore.example/v2/'))).toBe('/v2');
    expect(serverPath(doc({}, 'http://{host}:{port}'))).toBe('');
    expect(serverPath(doc({}))).toBeUndefined();
  });
});
