import { getResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createMockApi } from '../../../mocks/create-mock-api.js';
import { MOCK_DEMO_PASSWORDS } from '../../../mocks/mock-context.js';

/**
 * The mocks as an app's test uses them (msw/node `setupServer`, the environment's own `fetch`),
 * for one Vitest environment: the same file runs under node, jsdom and happy-dom, where realms
 * differ (jsdom's Uint8Array, happy-dom's Headers and Response) and the mocks must not care.
 */
export function describeMocksIn(environment: string): void {
  const base = 'http://api.test';
  const mock = createMockApi({ baseUrl: base, passwordIterations: 1000 });
  const open = createMockApi({
    baseUrl: 'http://open.test',
    auth: 'off',
    passwordIterations: 1000,
  });
  const server = setupServer(...mock.handlers, ...open.handlers);

  beforeAll(async () => {
    server.listen({ onUnhandledRequest: 'error' });
    await Promise.all([mock.ready, open.ready]);
  });
  afterEach(() => mock.reset());
  afterAll(() => server.close());

  const login = async () => {
    const res = await fetch(`${base}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin@example.com', password: MOCK_DEMO_PASSWORDS.admin }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    return {
      Authorization: `Bearer ${((await res.json()) as { accessToken: string }).accessToken}`,
    };
  };

  describe(`createMockApi under Vitest's ${environment} environment`, () => {
    it('logs in (HS256 signed and verified) and pages with ETag, Link and the sent X-Request-Id', async () => {
      const auth = await login();
      const res = await fetch(`${base}/api/v1/users?size=5`, {
        headers: { ...auth, 'X-Request-Id': 'env-req-1' },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(res.headers.get('etag')).toMatch(/^W\/"/);
      expect(res.headers.get('link')).toContain('rel="next"');
      expect(res.headers.get('x-request-id')).toBe('env-req-1');
      const page = (await res.json()) as { totalElements: number; content: unknown[] };
      expect(page.content).toHaveLength(5);
      expect(page.totalElements).toBe(36);
    });

    it('creates with 201, Location and ETag, reads back, and answers 304 to If-None-Match', async () => {
      const auth = await login();
      const created = await fetch(`${base}/api/v1/users`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Env Person', email: 'env@example.com' }),
      });
      expect(created.status).toBe(201);
      const location = created.headers.get('location');
      expect(location).toMatch(/^\/api\/v1\/users\/\d+$/);
      const etag = created.headers.get('etag');
      expect(etag).toMatch(/^"/);
      const read = await fetch(`${base}${location}`, { headers: auth });
      expect(((await read.json()) as { name: string }).name).toBe('Env Person');
      const again = await fetch(`${base}${location}`, {
        headers: { ...auth, 'If-None-Match': etag! },
      });
      expect(again.status).toBe(304);
    });

    it('hands MSW a real Headers of this realm in every Response', async () => {
      const response = await getResponse(
        open.handlers,
        new Request('http://open.test/api/v1/users/2'),
      );
      expect(response?.headers).toBeInstanceOf(Headers);
      expect(response?.headers.get('content-type')).toBe('application/json');
      expect(response?.headers.get('etag')).toMatch(/^"/);
    });

    it('with auth off, answers without a token (no login, no JWT per request)', async () => {
      const res = await fetch('http://open.test/api/v1/users/2');
      expect(res.status).toBe(200);
      expect(((await res.json()) as { email: string }).email).toBe('user@example.com');
      const admin = await fetch('http://open.test/api/v1/admin/users/5/block', { method: 'POST' });
      expect(admin.status).toBe(200);
    });

    it('answers an unexpected failure as a 500 problem naming its cause, not a stack', async () => {
      const auth = await login();
      const store = await mock.store();
      const write = store.write;
      store.write = () => Promise.reject(new Error('the disk is on fire'));
      try {
        const res = await fetch(`${base}/api/users`, {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/json', 'X-Request-Id': 'env-fail-1' },
          body: JSON.stringify({ name: 'Nobody', email: 'nobody@example.com' }),
        });
        expect(res.status).toBe(500);
        expect(res.headers.get('content-type')).toBe('application/problem+json');
        const problem = (await res.json()) as Record<string, unknown>;
        expect(problem).toMatchObject({
          type: 'urn:apikit:problem:internal-error',
          status: 500,
          instance: '/api/v1/users',
          requestId: 'env-fail-1',
        });
        expect(problem.title).toEqual(expect.any(String));
        expect(problem.detail).toContain('Error: the disk is on fire');
        expect(problem).not.toHaveProperty('stack');
      } finally {
        store.write = write;
      }
    });

    it('still fails a test on a contract violation, naming it', async () => {
      const auth = await login();
      mock.override('getUser', { status: 200, body: { id: 'one' } as never });
      const res = await fetch(`${base}/api/v1/users/1`, { headers: auth });
      expect(res.status).toBe(500);
      expect(await res.text()).toMatch(/getUser answered 200, which the contract does not allow/);
      expect(mock.violations).toHaveLength(1);
      expect(mock.violations[0]?.name).toBe('ContractViolationError');
    });

    it('answers Prefer: code=404 with the request’s own requestId and instance', async () => {
      const auth = await login();
      const res = await fetch(`${base}/api/users/1`, {
        headers: { ...auth, Prefer: 'code=404', 'X-Request-Id': 'env-prefer-1' },
      });
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toBe('application/problem+json');
      expect(res.headers.get('x-request-id')).toBe('env-prefer-1');
      expect(await res.json()).toMatchObject({
        status: 404,
        requestId: 'env-prefer-1',
        instance: '/api/v1/users/1',
      });
    });

    it('leaves everything but the API’s own paths alone on its origin', async () => {
      for (const path of ['/', '/assets/index-3f2a.js', '/src/App.tsx', '/apis', '/favicon.ico'])
        expect(await getResponse(mock.handlers, new Request(`${base}${path}`))).toBeUndefined();
      for (const path of ['/api/v1/roles', '/api', '/api/v2/users', '/healthz', '/openapi.json'])
        expect(await getResponse(mock.handlers, new Request(`${base}${path}`))).toBeDefined();
    });
  });
}
