import { describe, expect, it } from 'vitest';
import type { Problem } from './contract-checks.js';
import { exchange, type Observed } from './exchange.js';
import type { UserDto } from './fixtures.js';
import { startBareServer } from './start-bare-server.js';
import { CORS_ALLOWED_HEADERS } from './options-rows.js';
import type { SuiteContext } from './suite-context.js';

/**
 * Addresses and versions (the /api alias, unknown versions), strict routing, 405 and 501, CORS
 * and the headers every answer shares.
 */
export function routingSuite(ctx: SuiteContext): void {
  /** A request to any path of the server (not only below /api/v1), as the admin. */
  const raw = (method: string, path: string, headers: Record<string, string> = {}, body?: string) =>
    exchange({
      method,
      url: ctx.server.url + path,
      headers: { Authorization: `Bearer ${ctx.server.adminToken}`, ...headers },
      ...(body === undefined ? {} : { body }),
    });

  const expectProblem = (res: Observed, status: number, instance: string) => {
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.json<Problem>()).toMatchObject({ status, instance });
  };

  describe('addresses and versions', () => {
    it('/api is an alias of /api/v1', async () => {
      const alias = await raw('GET', '/api/users/2');
      const v1 = await raw('GET', '/api/v1/users/2');
      expect(alias.status).toBe(200);
      expect(alias.body).toBe(v1.body);
      expect(alias.headers.get('etag')).toBe(v1.headers.get('etag'));
    });

    it('a create through /api answers Location under /api/v1', async () => {
      const res = await raw(
        'POST',
        '/api/users',
        { 'Content-Type': 'application/json' },
        JSON.stringify({ name: 'Alias', email: ctx.fx.uniqueEmail() }),
      );
      expect(res.status).toBe(201);
      expect(res.headers.get('location')).toBe(`/api/v1/users/${res.json<UserDto>().id}`);
    });

    it('a problem through /api has its instance under /api/v1', async () => {
      expectProblem(await raw('GET', '/api/users/abc'), 400, '/api/v1/users/abc');
      expectProblem(await raw('GET', '/api/users/2?x=1'), 400, '/api/v1/users/2');
    });

    it('paging links through /api point under /api/v1', async () => {
      const res = await raw('GET', '/api/users?size=5');
      expect(res.headers.get('link')).toContain('</api/v1/users?');
      expect(res.headers.get('link')).not.toContain('</api/users');
    });

    it.each(['/api/v2/users', '/api/v0/users/1', '/api/v10/roles'])('%s is 404', async (path) => {
      expectProblem(await raw('GET', path), 404, path);
    });
  });

  describe('strict routing', () => {
    it.each([
      '/api/v1/users/',
      '/api/v1/USERS',
      '/api/v1/users.json',
      '/api/v1/Users/2',
      '/api/v1/users/2/orders/',
      '/nope',
    ])('%s is 404', async (path) => {
      expectProblem(await raw('GET', path), 404, path);
    });

    it('/users/1.json is a path id that is not a positive integer: 400', async () => {
      const res = await raw('GET', '/api/v1/users/1.json');
      expectProblem(res, 400, '/api/v1/users/1.json');
      expect(res.json<Problem>().errors?.map((e) => e.pointer)).toEqual(['#/path/id']);
    });

    it('OPTIONS on an unknown path is 404', async () => {
      expectProblem(await raw('OPTIONS', '/api/v1/nope'), 404, '/api/v1/nope');
    });

    it('an unsupported method is 405 with Allow', async () => {
      const cases: [string, string, string][] = [
        ['DELETE', '/api/v1/users', 'GET, HEAD, POST, OPTIONS'],
        ['POST', '/api/v1/users/2', 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS'],
        ['GET', '/api/v1/users/2/roles/1', 'PUT, DELETE, OPTIONS'],
        ['GET', '/api/v1/auth/login', 'POST, OPTIONS'],
        ['PATCH', '/api/v1/roles', 'GET, HEAD, OPTIONS'],
      ];
      for (const [method, path, allow] of cases) {
        const res = await raw(method, path);
        expectProblem(res, 405, path);
        expect(res.headers.get('allow'), `${method} ${path}`).toBe(allow);
      }
    });

    it('a method unknown even to the HTTP parser (BREW) is 501 problem+json too', async () => {
      const res = await raw('BREW', '/api/v1/users', { 'X-Request-Id': 'brew-1' });
      expectProblem(res, 501, '/api/v1/users');
      expect(res.headers.get('x-request-id')).toBe('brew-1');
    });

    it('a method the server does not recognize is 501', async () => {
      for (const method of ['PURGE', 'PROPFIND']) {
        const res = await raw(method, '/api/v1/users');
        expectProblem(res, 501, '/api/v1/users');
      }
    });
  });

  describe('CORS', () => {
    it('a preflight needs no token and lists methods, headers and a max age', async () => {
      const res = await exchange({
        method: 'OPTIONS',
        url: `${ctx.server.api}/users/2`,
        headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'PATCH' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-methods')).toBe(
        'GET, HEAD, PUT, PATCH, DELETE, OPTIONS',
      );
      expect((res.headers.get('access-control-allow-headers') ?? '').split(/,\s*/)).toEqual(
        expect.arrayContaining(CORS_ALLOWED_HEADERS),
      );
      expect(res.headers.get('access-control-max-age')).toMatch(/^[0-9]+$/);
      expect(res.headers.get('accept-patch')).toBe(
        'application/json, application/merge-patch+json',
      );
    });

    it('a plain OPTIONS answers Allow without the preflight headers', async () => {
      const res = await exchange({
        method: 'OPTIONS',
        url: `${ctx.server.api}/users`,
        headers: {},
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
      expect(res.headers.get('access-control-allow-methods')).toBeNull();
    });

    it('a cross-origin request exposes the headers a client needs', async () => {
      const res = await raw('GET', '/api/v1/users?size=2', { Origin: 'https://app.example' });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const exposed = (res.headers.get('access-control-expose-headers') ?? '').split(/,\s*/);
      expect(exposed).toEqual(
        expect.arrayContaining([
          'ETag',
          'Location',
          'Link',
          'Retry-After',
          'RateLimit',
          'RateLimit-Policy',
          'X-Request-Id',
        ]),
      );
    });

    it('a configured origin list echoes an allowed origin with Vary: Origin and ignores others', async () => {
      const strict = await startBareServer({ corsOrigins: ['https://app.example'] });
      try {
        const get = (origin: string) =>
          exchange({
            method: 'GET',
            url: `${strict.api}/roles`,
            headers: { Authorization: `Bearer ${strict.adminToken}`, Origin: origin },
          });
        const allowed = await get('https://app.example');
        expect(allowed.headers.get('access-control-allow-origin')).toBe('https://app.example');
        expect(allowed.headers.get('vary')).toContain('Origin');
        const other = await get('https://evil.example');
        expect(other.status).toBe(200);
        expect(other.headers.get('access-control-allow-origin')).toBeNull();
      } finally {
        await strict.close();
      }
    });
  });

  describe('shared response headers', () => {
    it('X-Request-Id is echoed when sane and generated otherwise', async () => {
      expect(
        (await raw('GET', '/api/v1/roles', { 'X-Request-Id': 'trace-42' })).headers.get(
          'x-request-id',
        ),
      ).toBe('trace-42');
      const made = await raw('GET', '/api/v1/roles', { 'X-Request-Id': 'bad id with spaces' });
      expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      const problem = await raw('GET', '/api/v1/nope');
      expect(problem.json<Problem>().requestId).toBe(problem.headers.get('x-request-id'));
    });

    it('Vary: Authorization, Accept on API answers; Cache-Control per kind', async () => {
      const user = await raw('GET', '/api/v1/users/2');
      expect(user.headers.get('vary')).toBe('Authorization, Accept');
      expect(user.headers.get('cache-control')).toBe('private, no-cache');
      expect((await raw('GET', '/api/v1/categories/1')).headers.get('cache-control')).toBe(
        'private, max-age=3600',
      );
    });

    it('/healthz and /openapi.json need no token', async () => {
      const health = await exchange({
        method: 'GET',
        url: `${ctx.server.url}/healthz`,
        headers: {},
      });
      expect(health.json()).toEqual({ status: 'ok' });
      const doc = await exchange({
        method: 'GET',
        url: `${ctx.server.url}/openapi.json`,
        headers: {},
      });
      expect(doc.json<{ info: { version: string } }>().info.version).toBe('1.0.0');
    });
  });
}
