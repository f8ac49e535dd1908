import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { swaggerUi } from '../../node-runtime/docs-assets.js';
import { startTestServer, type TestServer } from '../start-test-server.js';
import { httpCall } from '../support/hardening/http-call.js';
import { rawExchange } from '../support/hardening/raw-exchange.js';

/*
 * Security headers on every kind of answer: success, every error path, the open routes, the
 * /docs page and its assets, the rate limiter's 429, and the answers Node's parser forces
 * before Express runs (unknown method, malformed HTTP).
 */

/** What every answer carries (helmet's values; the raw answers mirror them). */
const REQUIRED: Record<string, RegExp> = {
  'x-content-type-options': /^nosniff$/,
  'x-frame-options': /^SAMEORIGIN$/,
  'referrer-policy': /^no-referrer$/,
  'content-security-policy': /frame-ancestors 'self'/,
};
/**
 * Never sent: X-Powered-By names the stack; HSTS is left to the TLS proxy (the server speaks
 * plain HTTP, and HSTS on localhost would pin every local dev server to https).
 */
const FORBIDDEN = ['x-powered-by', 'strict-transport-security', 'server'];

let server: TestServer;
let limited: TestServer;

beforeAll(async () => {
  server = await startTestServer();
  limited = await startTestServer({ rateLimit: 2 });
});

afterAll(async () => {
  await server?.close();
  await limited?.close();
});

function expectSecure(what: string, headers: { get(name: string): string | null }): void {
  for (const [name, pattern] of Object.entries(REQUIRED)) {
    expect(headers.get(name) ?? '', `${what}: ${name}`).toMatch(pattern);
  }
  for (const name of FORBIDDEN) expect(headers.get(name), `${what}: ${name}`).toBeNull();
}

describe('security headers', () => {
  it('on answers of every status through the API', async () => {
    const auth = { Authorization: `Bearer ${server.adminToken}` };
    const json = { ...auth, 'Content-Type': 'application/json' };
    const cases: [string, string, Record<string, string>, string | undefined, number][] = [
      ['GET', '/api/v1/users/1', auth, undefined, 200],
      [
        'POST',
        '/api/v1/users',
        json,
        JSON.stringify({ name: 'H', email: 'headers@example.com' }),
        201,
      ],
      ['OPTIONS', '/api/v1/users', {}, undefined, 204],
      ['HEAD', '/api/v1/users/1', auth, undefined, 200],
      ['POST', '/api/v1/users', json, '{"name":', 400],
      ['GET', '/api/v1/users/1', {}, undefined, 401],
      [
        'POST',
        '/api/v1/admin/reset',
        { Authorization: `Bearer ${server.userToken}` },
        undefined,
        403,
      ],
      ['GET', '/api/v1/users/987654', auth, undefined, 404],
      ['GET', '/nowhere', {}, undefined, 404],
      ['DELETE', '/api/v1/roles', auth, undefined, 405],
      ['GET', '/api/v1/users/1', { ...auth, Accept: 'text/html' }, undefined, 406],
      ['POST', '/api/v1/users', json, JSON.stringify({ name: 'x'.repeat(110_000) }), 413],
      ['POST', '/api/v1/users', { ...auth, 'Content-Type': 'text/plain' }, 'hi', 415],
      ['PROPFIND', '/api/v1/users', auth, undefined, 501],
      ['GET', '/healthz', {}, undefined, 200],
      ['GET', '/openapi.json', {}, undefined, 200],
      ['GET', '/docs', {}, undefined, 200],
      ['GET', '/docs/init.js', {}, undefined, 200],
      ['GET', `${swaggerUi()?.assets}/swagger-ui.css`, {}, undefined, 200],
      ['GET', '/docs/assets/..%2f..%2fpackage.json', {}, undefined, 404],
      ['GET', '/docs/assets/package.json', {}, undefined, 404],
    ];
    for (const [method, path, headers, body, status] of cases) {
      const res = await httpCall({
        method,
        url: `${server.url}${path}`,
        headers,
        ...(body ? { body } : {}),
      });
      expect(res.status, `${method} ${path}: ${res.text.slice(0, 200)}`).toBe(status);
      expectSecure(`${method} ${path}`, res.headers);
    }
  });

  it("API answers are no documents: helmet's document-only headers go on /docs alone", async () => {
    // Only what governs a document's scripts, windows, DNS prefetching or plugins (decision 0036).
    const documentOnly = [
      'cross-origin-opener-policy',
      'origin-agent-cluster',
      'x-dns-prefetch-control',
      'x-download-options',
      'x-permitted-cross-domain-policies',
      'x-xss-protection',
    ];
    const auth = { Authorization: `Bearer ${server.adminToken}` };
    for (const path of ['/api/v1/users/1', '/api/v1/nothing-here', '/healthz', '/openapi.json']) {
      const res = await httpCall({ method: 'GET', url: `${server.url}${path}`, headers: auth });
      for (const name of documentOnly) expect(res.headers.get(name), `${path}: ${name}`).toBeNull();
      // A JSON answer allows nothing to load or run, and only its own origin to frame it.
      expect(res.headers.get('content-security-policy'), path).toBe(
        "default-src 'none';frame-ancestors 'self'",
      );
      expect(res.headers.get('cross-origin-resource-policy'), path).toBe('cross-origin');
    }
    for (const path of ['/docs', '/docs/init.js']) {
      const res = await httpCall({ method: 'GET', url: `${server.url}${path}` });
      for (const name of documentOnly)
        expect(res.headers.get(name), `${path}: ${name}`).not.toBeNull();
      expect(res.headers.get('content-security-policy'), path).toMatch(/script-src 'self'/);
    }
  });

  it('on the rate limiter 429', async () => {
    let res;
    for (let i = 0; i < 3; i += 1) {
      res = await httpCall({
        method: 'GET',
        url: `${limited.api}/users/1`,
        headers: { Authorization: `Bearer ${limited.adminToken}` },
      });
    }
    expect(res?.status).toBe(429);
    expectSecure('429', res!.headers);
  });

  it.each([
    ['an unknown method', 'BREW /api/v1/users HTTP/1.1\r\nHost: x\r\n\r\n', 501],
    ['a malformed request line', 'GET /api/v1/users HTTP/9.x\r\nHost: x\r\n\r\n', 400],
    ['a malformed header', 'GET /api/v1/users HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n', 400],
    [
      'a header block over 16 KiB',
      `GET /api/v1/users HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
    ],
  ])('on the answer to %s, sent before Express runs', async (_, bytes, status) => {
    const res = await rawExchange(server.url, bytes);
    expect(res.status, res.text).toBe(status);
    expectSecure(`raw ${status}`, { get: (name) => res.headers.get(name) ?? null });
  });
});
