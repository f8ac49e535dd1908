import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../start-test-server.js';
import { httpCall, type HttpAnswer } from '../support/hardening/http-call.js';

/*
 * CORS with configured origins: a preflight (and a real request) from an allowed origin is
 * answered with that origin echoed; from any other origin, look-alikes included, with no
 * Access-Control-* header at all, so the browser refuses to let the page read anything.
 */

const ALLOWED = 'https://app.example.com';
const OTHER_ALLOWED = 'http://localhost:5173';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ corsOrigins: [ALLOWED, OTHER_ALLOWED] });
});

afterAll(async () => {
  await server?.close();
});

const preflight = (origin: string, path = '/users/1', method = 'PATCH') =>
  httpCall({
    method: 'OPTIONS',
    url: `${server.api}${path}`,
    headers: {
      Origin: origin,
      'Access-Control-Request-Method': method,
      'Access-Control-Request-Headers': 'authorization, content-type, if-match',
    },
  });

const accessControl = (res: HttpAnswer) =>
  [...res.headers.keys()].filter((name) => name.startsWith('access-control-'));

const REFUSED_ORIGINS = [
  'https://evil.example.com',
  'https://app.example.com.evil.com',
  'https://evilapp.example.com',
  'http://app.example.com', // another scheme
  'https://app.example.com:8443', // another port
  'https://APP.EXAMPLE.COM', // browsers send lower case; anything else is not the origin
  'null', // sandboxed iframes, file:// pages
  'https://app.example.com/', // not an origin serialization
  `${ALLOWED}, https://evil.example.com`,
];

describe('CORS preflight with configured origins', () => {
  it.each([ALLOWED, OTHER_ALLOWED])(
    '%s: 204 with the origin echoed and the route methods',
    async (origin) => {
      const res = await preflight(origin);
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('vary')).toMatch(/\bOrigin\b/);
      expect(res.headers.get('access-control-allow-methods')).toBe(res.headers.get('allow'));
      const allowed = (res.headers.get('access-control-allow-headers') ?? '').toLowerCase();
      for (const header of ['authorization', 'content-type', 'if-match'])
        expect(allowed).toContain(header);
      expect(res.headers.get('access-control-max-age')).toMatch(/^[0-9]+$/);
      // Bearer tokens travel in a header, never in cookies: credentials mode is never allowed.
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    },
  );

  it.each(REFUSED_ORIGINS)('%s: no Access-Control-* header on the preflight', async (origin) => {
    const res = await preflight(origin);
    expect(accessControl(res)).toEqual([]);
    // The answer itself is the plain OPTIONS answer: nothing for the browser to act on.
    expect(res.status).toBe(204);
  });

  it.each(REFUSED_ORIGINS)(
    '%s: no Access-Control-* header on a real request either',
    async (origin) => {
      const res = await httpCall({
        method: 'GET',
        url: `${server.api}/users/1`,
        headers: { Origin: origin, Authorization: `Bearer ${server.adminToken}` },
      });
      expect(res.status).toBe(200);
      expect(accessControl(res)).toEqual([]);
    },
  );

  it('an allowed origin reads the exposed headers on a real request, and on an error', async () => {
    for (const path of ['/users/1', '/users/999999']) {
      const res = await httpCall({
        method: 'GET',
        url: `${server.api}${path}`,
        headers: { Origin: ALLOWED, Authorization: `Bearer ${server.adminToken}` },
      });
      expect(res.headers.get('access-control-allow-origin')).toBe(ALLOWED);
      expect(res.headers.get('access-control-expose-headers')).toContain('X-Request-Id');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });

  it('every OPTIONS route answers the allowed origin and refuses the other', async () => {
    for (const path of ['/users', '/auth/login', '/admin/reset', '/orders/1/cancel', '/roles']) {
      expect(
        (await preflight(ALLOWED, path, 'POST')).headers.get('access-control-allow-origin'),
      ).toBe(ALLOWED);
      expect(accessControl(await preflight('https://evil.example.com', path, 'POST'))).toEqual([]);
    }
  });
});

describe('CORS by default (any origin)', () => {
  let open: TestServer;
  beforeAll(async () => {
    open = await startTestServer();
  });
  afterAll(async () => {
    await open?.close();
  });

  it('answers * and never allows credentials', async () => {
    const res = await httpCall({
      method: 'OPTIONS',
      url: `${open.api}/users`,
      headers: { Origin: 'https://anyone.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-credentials')).toBeNull();
  });
});
