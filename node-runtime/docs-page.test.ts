import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test/start-test-server.js';

/* The demo's front door: `GET /`, `/docs/` and the page's CSP, over real HTTP. */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server.url}${path}`, { headers, redirect: 'manual' });

describe('GET / and /docs/', () => {
  it('sends a browser (Accept: text/html first) to /docs', async () => {
    const res = await get('/', {
      Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8',
    });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('/docs');
    expect(res.headers.get('vary')).toMatch(/accept/i);
  });

  it('tells an API client (curl: */*) where the docs, the API and the contract are', async () => {
    for (const accept of ['*/*', 'application/json']) {
      const res = await get('/', { Accept: accept });
      expect(res.status, accept).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toMatchObject({
        docs: '/docs',
        api: '/api/v1',
        openapi: ['/openapi.json', '/openapi.yaml'],
        health: '/healthz',
      });
    }
  });

  it('redirects /docs/ to /docs', async () => {
    const res = await get('/docs/');
    expect(res.status).toBe(301);
    expect(res.headers.get('location')).toBe('/docs');
  });

  it("lets the page call its own origin: the CSP says connect-src 'self'", async () => {
    const csp = (await get('/docs')).headers.get('content-security-policy') ?? '';
    expect(csp).toMatch(/connect-src 'self'/);
    expect(csp).not.toMatch(/upgrade-insecure-requests/);
  });

  it('leaves paths that only start like /docs to the API (a problem, not the page)', async () => {
    const res = await get('/docsx');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });
});
