import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDatasetRepository } from '../repository/dataset-repository.js';
import { loadSpec, type OpenApiDocument } from '../../spec/load-spec.js';
import type { DomainContext } from '../domain/ports.js';
import { StoreUnavailableError, type Store } from '../domain/store.js';
import { createTestContext, type TestContext } from '../../test/support/domain/test-context.js';
import { testDataset } from '../../test/support/domain/test-dataset.js';
import { createJwtAccessTokenCodec } from '../../node-runtime/jwt-access-token-codec.js';
import type { ApiRequest, ApiResponse } from './api-types.js';
import { createApi, type Api, type ApiOptions } from './create-api.js';
import { MAX_BODY_BYTES } from './body-parser.js';
import { createRouteTable } from './route-table.js';

const SECRET = 'a-test-signing-secret-of-at-least-32-bytes';
const codec = createJwtAccessTokenCodec(SECRET);
const DOCUMENTS = { json: () => '{"openapi":"3.0.3"}', yaml: () => 'openapi: 3.0.3\n' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let spec: OpenApiDocument;
let tc: TestContext;
/** One context for every test, over the current test's store and clock. */
const ctx: DomainContext = {
  get repo() {
    return tc.ctx.repo;
  },
  clock: () => tc.clock.now(),
  get passwords() {
    return tc.ctx.passwords;
  },
  tokens: codec,
  get config() {
    return tc.ctx.config;
  },
};
/** Built once: compiling the spec's validators is the slow part. */
let api: Api;
/** Tokens of the test data set: 1 Ada (ADMIN), 2 Bob (USER), 4 Dee (BLOCKED). */
let admin: string;
let user: string;
let blocked: string;

beforeAll(async () => {
  spec = await loadSpec();
  api = build();
});

beforeEach(async () => {
  tc = createTestContext(testDataset());
  const now = tc.clock.now();
  admin = await codec.sign({ sub: '1', name: 'Ada', role: 'ADMIN' }, 900, now);
  user = await codec.sign({ sub: '2', name: 'Bob', role: 'USER' }, 900, now);
  blocked = await codec.sign({ sub: '4', name: 'Dee', role: 'USER' }, 900, now);
});

function build(options: Partial<ApiOptions> = {}): Api {
  return createApi({ ctx, spec, documents: DOCUMENTS, ...options });
}

interface Call {
  token?: string;
  headers?: Record<string, string>;
  /** An object is sent as JSON with Content-Type application/json unless headers say otherwise. */
  json?: unknown;
  body?: string;
  bodyTooLarge?: boolean;
}

function request(method: string, target: string, call: Call = {}): ApiRequest {
  const [path = '', query = ''] = target.split('?');
  const headers = new Headers(call.headers);
  if (call.token) headers.set('Authorization', `Bearer ${call.token}`);
  let body: string | undefined = call.body;
  if (call.json !== undefined) {
    body = JSON.stringify(call.json);
    if (!headers.has('content-type')) headers.set('Content-Type', 'application/json');
  }
  return {
    method,
    path,
    query,
    headers,
    body: body === undefined ? null : new TextEncoder().encode(body),
    ...(call.bodyTooLarge ? { bodyTooLarge: true } : {}),
  };
}

function send(
  method: string,
  target: string,
  call: Call = {},
  on: Api = api,
): Promise<ApiResponse> {
  return on.handle(request(method, target, call));
}

function problem(res: ApiResponse): Record<string, unknown> & { errors?: { pointer: string }[] } {
  expect(res.headers.get('content-type')).toBe('application/problem+json');
  return JSON.parse(res.body ?? 'null') as Record<string, unknown>;
}

const pointers = (res: ApiResponse) => (problem(res).errors ?? []).map((e) => e.pointer).sort();

describe('createApi: the check order of the contract', () => {
  // Each request breaks every check from its expected status on; only the first may answer.
  it.each([
    {
      name: 'an unknown route before an unknown method',
      method: 'BREW',
      target: '/api/v1/coffee',
      call: { headers: { Accept: 'text/html' } },
      status: 404,
    },
    {
      name: 'an unknown version',
      method: 'GET',
      target: '/api/v2/users',
      call: {},
      status: 404,
    },
    {
      name: 'an unrecognized method before 401',
      method: 'BREW',
      target: '/api/v1/users',
      call: { headers: { Accept: 'text/html' } },
      status: 501,
    },
    {
      name: 'a method the path lacks before 401',
      method: 'DELETE',
      target: '/api/v1/users',
      call: { headers: { Accept: 'text/html' } },
      status: 405,
    },
    {
      name: 'no token before 403, 406, 413, 415 and 400',
      method: 'POST',
      target: '/api/v1/admin/reset?x=1',
      call: {
        headers: { Accept: 'text/html', 'Content-Type': 'text/plain' },
        bodyTooLarge: true,
        body: 'x',
      },
      status: 401,
    },
    {
      name: 'a token in two ways, judged where 401 would be',
      method: 'GET',
      target: '/api/v1/users/abc?access_token=x',
      call: { token: 'user', headers: { Accept: 'text/html' } },
      status: 400,
    },
    {
      name: 'a missing role before 406, 413, 415 and 400',
      method: 'POST',
      target: '/api/v1/admin/users/abc/block?x=1',
      call: {
        token: 'user',
        headers: { Accept: 'text/html', 'Content-Type': 'text/plain' },
        body: 'x',
        bodyTooLarge: true,
      },
      status: 403,
    },
    {
      name: 'Accept before 413, 415 and 400',
      method: 'POST',
      target: '/api/v1/users?x=1',
      call: {
        token: 'admin',
        headers: { Accept: 'text/html', 'Content-Type': 'text/plain' },
        body: 'x',
        bodyTooLarge: true,
      },
      status: 406,
    },
    {
      name: 'a body too large before 415 and 400',
      method: 'POST',
      target: '/api/v1/users?x=1',
      call: {
        token: 'admin',
        headers: { 'Content-Type': 'text/plain' },
        body: 'x',
        bodyTooLarge: true,
      },
      status: 413,
    },
    {
      name: 'a body over 100 KiB counted by the pipeline itself',
      method: 'POST',
      target: '/api/v1/users?x=1',
      call: {
        token: 'admin',
        headers: { 'Content-Type': 'text/plain' },
        body: 'x'.repeat(MAX_BODY_BYTES + 1),
      },
      status: 413,
    },
    {
      name: 'a Content-Type before path and query',
      method: 'PATCH',
      target: '/api/v1/users/abc?x=1',
      call: { token: 'admin', headers: { 'Content-Type': 'text/plain' }, body: '{' },
      status: 415,
    },
    {
      name: 'a bad path id before the resource and the body',
      method: 'PATCH',
      target: '/api/v1/users/abc',
      call: { token: 'admin', headers: { 'If-Match': '"x"' }, json: { name: '' } },
      status: 400,
    },
    {
      name: 'an unknown query parameter before the resource',
      method: 'DELETE',
      target: '/api/v1/users/999?force=true',
      call: { token: 'admin', headers: { 'If-Match': '"x"' } },
      status: 400,
    },
    {
      name: 'an absent resource before If-Match and the body',
      method: 'PATCH',
      target: '/api/v1/users/999',
      call: { token: 'admin', headers: { 'If-Match': '"x"' }, json: { name: '' } },
      status: 404,
    },
    {
      name: 'If-Match before the body',
      method: 'PATCH',
      target: '/api/v1/users/2',
      call: { token: 'admin', headers: { 'If-Match': '"x"' }, json: { name: '', email: null } },
      status: 412,
    },
    {
      name: 'the body before the domain',
      method: 'PATCH',
      target: '/api/v1/users/2',
      call: { token: 'admin', json: { email: 'cy@example.com', age: 3 } },
      status: 400,
    },
    {
      name: 'the domain last: a duplicate email',
      method: 'PATCH',
      target: '/api/v1/users/2',
      call: { token: 'admin', json: { email: 'CY@example.com' } },
      status: 409,
    },
    {
      name: 'the domain last: an unknown category',
      method: 'POST',
      target: '/api/v1/users/2/orders',
      call: { token: 'admin', json: { product: 'Pen', categoryId: 999 } },
      status: 422,
    },
    {
      name: 'an absent order (PUT does not create orders) before the body',
      method: 'PUT',
      target: '/api/v1/users/2/orders/999',
      call: { token: 'admin', json: { product: '' } },
      status: 404,
    },
    {
      name: 'If-Match on a PUT to an absent user (no creation) before the body',
      method: 'PUT',
      target: '/api/v1/users/999',
      call: { token: 'admin', headers: { 'If-Match': '*' }, json: {} },
      status: 412,
    },
  ])('$name: $status', async ({ method, target, call, status }) => {
    const { token, ...rest } = call as Call & { token?: 'admin' | 'user' };
    const res = await send(method, target, {
      ...rest,
      ...(token ? { token: token === 'admin' ? admin : user } : {}),
    });
    expect(res.status).toBe(status);
    expect(problem(res).status).toBe(status);
  });

  // The contract puts 404 (resource) before 400 (body) for every operation on a path that
  // names a resource, not only for those with If-Match.
  it.each([
    {
      name: 'activate an absent user',
      method: 'POST',
      target: '/api/v1/users/999/activate',
      json: { x: 1 },
    },
    {
      name: 'cancel an absent order',
      method: 'POST',
      target: '/api/v1/orders/999/cancel',
      json: [1],
    },
    {
      name: 'block an absent user',
      method: 'POST',
      target: '/api/v1/admin/users/999/block',
      json: { x: 1 },
    },
    {
      name: 'an order for an absent user',
      method: 'POST',
      target: '/api/v1/users/999/orders',
      json: {},
    },
    {
      name: 'a role for an absent user',
      method: 'PUT',
      target: '/api/v1/users/999/roles/1',
      json: { x: 1 },
    },
  ])('answers 404 before the body: $name', async ({ method, target, json }) => {
    const res = await send(method, target, { token: admin, json });
    expect(res.status).toBe(404);
  });

  it('answers 405 with Allow', async () => {
    const res = await send('PATCH', '/api/v1/roles', { token: admin, json: {} });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it.each([
    { name: 'TRACE on an API path', method: 'TRACE', status: 405 },
    { name: 'CONNECT on an API path', method: 'CONNECT', status: 405 },
    { name: 'PROPFIND', method: 'PROPFIND', status: 501 },
  ])('$name: $status', async ({ method, status }) => {
    expect((await send(method, '/api/v1/users/1')).status).toBe(status);
  });
});

describe('createApi: routing', () => {
  it.each([
    { target: '/api/v1/users/', status: 404 },
    { target: '/api/v1/USERS', status: 404 },
    { target: '/api/v1/users.json', status: 404 },
    { target: '/api/v2/users/1', status: 404 },
    { target: '/api', status: 404 },
    { target: '/nope', status: 404 },
    { target: '/api/v1/users/1.json', status: 400 },
    { target: '/api/v1/users/undefined', status: 400 },
    { target: '/api/v1/users/0', status: 400 },
    { target: '/api/v1/users/9007199254740992', status: 400 },
    { target: '/api/v1/users/2', status: 200 },
    { target: '/api/users/2', status: 200 },
  ])('GET $target: $status', async ({ target, status }) => {
    expect((await send('GET', target, { token: admin })).status).toBe(status);
  });

  it('points a bad path id at #/path/id', async () => {
    expect(pointers(await send('GET', '/api/v1/users/abc', { token: admin }))).toEqual([
      '#/path/id',
    ]);
  });

  it('uses /api/v1 for instance and Location of a request made through /api', async () => {
    const missing = await send('GET', '/api/users/999?', { token: admin });
    expect(problem(missing).instance).toBe('/api/v1/users/999');
    const created = await send('POST', '/api/users', {
      token: admin,
      json: { name: 'Eve', email: 'eve@example.com' },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get('location')).toMatch(/^\/api\/v1\/users\/\d+$/);
  });

  it('serves the open routes without a token and 404s other paths outside /api', async () => {
    const health = await send('GET', '/healthz');
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body ?? '')).toEqual({ status: 'ok' });
    expect((await send('GET', '/openapi.json')).body).toBe(DOCUMENTS.json());
    expect((await send('GET', '/openapi.yaml')).headers.get('content-type')).toBe(
      'application/yaml',
    );
    expect((await send('POST', '/healthz')).status).toBe(405);
    expect((await send('GET', '/healthz/')).status).toBe(404);
  });

  it('takes a route the adapter matched already instead of matching the path again', async () => {
    const routes = createRouteTable(spec);
    const plain = await send('GET', '/api/v1/users/2', { token: admin });
    const routed = await api.handle({
      ...request('GET', '/api/v1/users/2', { token: admin }),
      route: routes.match('/users/2')!,
    });
    expect(routed.status).toBe(200);
    expect(routed.body).toBe(plain.body);
    // The route given is the one answered, not one found again from the path.
    const roles = await api.handle({
      ...request('GET', '/api/v1/users/2', { token: admin }),
      route: routes.match('/roles')!,
    });
    expect(roles.operationId).toBe('listRoles');
  });
});

describe('createApi: 401 and WWW-Authenticate', () => {
  it.each<{ name: string; headers: Record<string, string>; query: string; challenge?: string }>([
    { name: 'no token', headers: {}, query: '', challenge: 'Bearer realm="api"' },
    {
      name: 'Basic credentials',
      headers: { Authorization: 'Basic dXNlcjpwYXNz' },
      query: '',
      challenge: 'Bearer realm="api"',
    },
    {
      name: 'a wrongly signed token',
      headers: { Authorization: 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.AAAA' },
      query: '',
      challenge: 'Bearer realm="api", error="invalid_token"',
    },
    {
      name: 'a token that is not a JWT',
      headers: { Authorization: 'Bearer not-a-jwt' },
      query: '',
      challenge: 'Bearer realm="api", error="invalid_token"',
    },
  ])('$name: 401 with $challenge', async ({ headers, query, challenge }) => {
    const res = await send('GET', `/api/v1/users${query}`, { headers });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(challenge);
    expect(problem(res).status).toBe(401);
  });

  it.each([
    { name: 'an expired token', sub: '2', ttl: -1 },
    { name: 'a blocked user', sub: '4', ttl: 900 },
    { name: 'a deleted user', sub: '99', ttl: 900 },
  ])('refuses $name with invalid_token', async ({ sub, ttl }) => {
    const token = await codec.sign({ sub, name: 'x', role: 'USER' }, ttl, tc.clock.now());
    const res = await send('GET', '/api/v1/users', { token });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api", error="invalid_token"');
  });

  // Contract: error="invalid_token" "where a token was sent"; a malformed token and a token in
  // the query (RFC 6750 2.3) are both tokens sent.
  it.each<{ name: string; headers: Record<string, string>; query: string; challenge?: string }>([
    { name: 'a malformed Bearer header', headers: { Authorization: 'Bearer a b' }, query: '' },
    { name: 'a token only in the query', headers: {}, query: '?access_token=abc.def.ghi' },
  ])('marks $name as invalid_token', async ({ headers, query }) => {
    const res = await send('GET', `/api/v1/users${query}`, { headers });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api", error="invalid_token"');
  });

  it('lets a blocked user token through nowhere, HEAD included', async () => {
    expect((await send('HEAD', '/api/v1/users/2', { token: blocked })).status).toBe(401);
    expect((await send('HEAD', '/api/v1/users/2')).status).toBe(401);
  });

  it('needs no token for /auth', async () => {
    const res = await send('POST', '/api/v1/auth/login', {
      json: { username: 'nobody@example.com', password: 'x' },
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    expect(res.headers.get('cache-control')).toBe('no-store');
  });
});

describe('createApi: HEAD and OPTIONS', () => {
  it('answers HEAD with the headers of GET and no body', async () => {
    const get = await send('GET', '/api/v1/users/2', { token: user });
    const head = await send('HEAD', '/api/v1/users/2', { token: user });
    expect(head.status).toBe(200);
    expect(head.body).toBeNull();
    for (const name of [
      'etag',
      'last-modified',
      'content-type',
      'content-length',
      'cache-control',
      'vary',
    ]) {
      expect(head.headers.get(name), name).toBe(get.headers.get(name));
    }
    expect(Number(get.headers.get('content-length'))).toBe(
      new TextEncoder().encode(get.body ?? '').length,
    );
  });

  it('answers HEAD of a list with its Link and weak ETag', async () => {
    const head = await send('HEAD', '/api/v1/users?size=1', { token: admin });
    expect(head.body).toBeNull();
    expect(head.headers.get('etag')).toMatch(/^W\//);
    expect(head.headers.get('link')).toContain('rel="next"');
  });

  it('answers HEAD with 304 when the tag matches', async () => {
    const etag = (await send('GET', '/api/v1/users/2', { token: user })).headers.get('etag') ?? '';
    const head = await send('HEAD', '/api/v1/users/2', {
      token: user,
      headers: { 'If-None-Match': etag },
    });
    expect(head.status).toBe(304);
    expect(head.body).toBeNull();
  });

  it('answers HEAD of an absent resource with 404 and no body', async () => {
    const head = await send('HEAD', '/api/v1/users/999', { token: user });
    expect(head.status).toBe(404);
    expect(head.body).toBeNull();
  });

  it.each([
    {
      target: '/api/v1/users/2',
      allow: 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS',
      acceptPatch: 'application/json, application/merge-patch+json',
    },
    {
      target: '/api/v1/users/2/orders/1',
      allow: 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS',
      acceptPatch: 'application/json, application/merge-patch+json',
    },
    { target: '/api/v1/users', allow: 'GET, HEAD, POST, OPTIONS', acceptPatch: null },
    { target: '/api/v1/admin/reset', allow: 'POST, OPTIONS', acceptPatch: null },
    {
      target: '/api/v1/users/abc',
      allow: 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS',
      acceptPatch: 'application/json, application/merge-patch+json',
    },
    { target: '/healthz', allow: 'GET, HEAD, OPTIONS', acceptPatch: null },
  ])(
    'OPTIONS $target: 204, Allow $allow, without a token',
    async ({ target, allow, acceptPatch }) => {
      const res = await send('OPTIONS', target, { headers: { Accept: 'text/html' } });
      expect(res.status).toBe(204);
      expect(res.body).toBeNull();
      expect(res.headers.get('allow')).toBe(allow);
      expect(res.headers.get('accept-patch')).toBe(acceptPatch);
    },
  );

  it('answers OPTIONS on an unknown path with 404', async () => {
    expect((await send('OPTIONS', '/api/v1/nope')).status).toBe(404);
    expect((await send('OPTIONS', '/api/v1/users/')).status).toBe(404);
  });

  it('answers a CORS preflight with the route methods', async () => {
    const res = await send('OPTIONS', '/api/v1/users/2', {
      headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'PATCH' },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('access-control-allow-methods')).toBe(
      'GET, HEAD, PUT, PATCH, DELETE, OPTIONS',
    );
  });

  it('answers 415 of a PATCH with Accept-Patch', async () => {
    const res = await send('PATCH', '/api/v1/users/2', {
      token: admin,
      headers: { 'Content-Type': 'application/xml' },
      body: '<user/>',
    });
    expect(res.status).toBe(415);
    expect(res.headers.get('accept-patch')).toBe('application/json, application/merge-patch+json');
  });
});

describe('createApi: request ids', () => {
  it.each([
    { name: 'a sane id', sent: 'abc-123_X.y:z', echoed: true },
    { name: '128 characters', sent: 'a'.repeat(128), echoed: true },
    { name: 'a space', sent: 'bad id', echoed: false },
    { name: 'a newline attempt', sent: 'a%0d%0aSet-Cookie:x', echoed: false },
    { name: '129 characters', sent: 'a'.repeat(129), echoed: false },
    { name: 'empty', sent: '', echoed: false },
  ])('$name: echoed=$echoed', async ({ sent, echoed }) => {
    const res = await send('GET', '/api/v1/users/999', {
      token: admin,
      headers: { 'X-Request-Id': sent },
    });
    const id = res.headers.get('x-request-id') ?? '';
    if (echoed) expect(id).toBe(sent);
    else expect(id).toMatch(UUID);
    expect(problem(res).requestId).toBe(id);
  });

  it('generates a fresh id for each request without one', async () => {
    const a = await send('GET', '/healthz');
    const b = await send('GET', '/healthz');
    expect(a.headers.get('x-request-id')).toMatch(UUID);
    expect(a.headers.get('x-request-id')).not.toBe(b.headers.get('x-request-id'));
  });

  it.each([
    { name: '200', method: 'GET', target: '/api/v1/users/2' },
    { name: '204', method: 'OPTIONS', target: '/api/v1/users' },
    { name: '404', method: 'GET', target: '/api/v1/nope' },
    { name: '405', method: 'PUT', target: '/api/v1/roles' },
  ])('puts the id on every response ($name)', async ({ method, target }) => {
    const res = await send(method, target, {
      token: admin,
      headers: { 'X-Request-Id': 'trace-1' },
    });
    expect(res.headers.get('x-request-id')).toBe('trace-1');
  });
});

describe('createApi: unexpected errors', () => {
  function failingStore(error: unknown): Store {
    return {
      get data() {
        return tc.store.data;
      },
      write: () => Promise.reject(error),
      close: () => Promise.resolve(),
    };
  }

  it.each([
    {
      name: 'thrown by a handler (a store write)',
      setup: () => ({
        ...ctx,
        repo: createDatasetRepository(failingStore(new Error('EACCES: /var/lib/apikit/db.json'))),
      }),
      method: 'POST',
      target: '/api/v1/users/3/activate',
    },
    {
      name: 'thrown while authenticating',
      setup: () => ({
        ...ctx,
        tokens: { ...codec, verify: () => Promise.reject(new TypeError('secret key material')) },
      }),
      method: 'GET',
      target: '/api/v1/users',
    },
  ])(
    'turns an error $name into a 500 naming only the request id',
    async ({ setup, method, target }) => {
      const onUnexpectedError = vi.fn();
      const failing = createApi({ ctx: setup(), spec, documents: DOCUMENTS, onUnexpectedError });
      const res = await send(
        method,
        target,
        { token: admin, headers: { 'X-Request-Id': 'req-500' } },
        failing,
      );
      expect(res.status).toBe(500);
      const body = problem(res);
      expect(body).toMatchObject({ status: 500, requestId: 'req-500', instance: target });
      expect(String(body.detail)).toContain('req-500');
      expect(res.body).not.toMatch(/EACCES|db\.json|secret|key material|stack|\bat\b.*:\d+/);
      expect(Object.keys(body).sort()).toEqual([
        'detail',
        'instance',
        'requestId',
        'status',
        'title',
        'type',
      ]);
      expect(onUnexpectedError).toHaveBeenCalledTimes(1);
      expect(onUnexpectedError.mock.calls[0]?.[0]).toBeInstanceOf(Error);
      expect(onUnexpectedError.mock.calls[0]?.[1]).toBe('req-500');
    },
  );

  it('answers a store that cannot write with 503 and Retry-After, and tells onUnavailable why', async () => {
    const onUnavailable = vi.fn();
    const onUnexpectedError = vi.fn();
    const down = createApi({
      ctx: {
        ...ctx,
        repo: createDatasetRepository(failingStore(new StoreUnavailableError('disk full', 3))),
      },
      spec,
      documents: DOCUMENTS,
      onUnavailable,
      onUnexpectedError,
    });
    const res = await send('POST', '/api/v1/users/3/activate', { token: admin }, down);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('3');
    expect(problem(res).status).toBe(503);
    expect(problem(res).detail).toBe('The data store is unavailable right now; try again shortly');
    expect(onUnavailable).toHaveBeenCalledTimes(1);
    expect(onUnavailable.mock.calls[0]?.[0]).toBeInstanceOf(StoreUnavailableError);
    expect(onUnexpectedError).not.toHaveBeenCalled();
  });

  it('does not report client errors to onUnexpectedError', async () => {
    const onUnexpectedError = vi.fn();
    const watched = build({ onUnexpectedError });
    await send('GET', '/api/v1/users/abc', { token: admin }, watched);
    await send('GET', '/api/v1/users/999', { token: admin }, watched);
    await send('GET', '/api/v1/users', {}, watched);
    expect(onUnexpectedError).not.toHaveBeenCalled();
  });
});

describe('createApi: shared HTTP semantics', () => {
  it('answers a conditional GET with 304 carrying ETag, Cache-Control, Vary, X-Request-Id and CORS', async () => {
    const first = await send('GET', '/api/v1/users/2', { token: user });
    const etag = first.headers.get('etag') ?? '';
    const res = await send('GET', '/api/v1/users/2', {
      token: user,
      headers: { 'If-None-Match': etag, Origin: 'https://app.example' },
    });
    expect(res.status).toBe(304);
    expect(res.body).toBeNull();
    expect(res.headers.get('etag')).toBe(etag);
    expect(res.headers.get('cache-control')).toBe('private, no-cache');
    expect(res.headers.get('vary')).toContain('Authorization');
    expect(res.headers.get('x-request-id')).toMatch(UUID);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('content-length')).toBeNull();
  });

  it('gives POST 201 and PATCH 200 the ETag a GET gives, and honours it in If-Match', async () => {
    const created = await send('POST', '/api/v1/users', {
      token: admin,
      json: { name: 'Eve', email: 'eve@example.com' },
    });
    const location = created.headers.get('location') ?? '';
    const read = await send('GET', location, { token: admin });
    expect(created.headers.get('etag')).toBe(read.headers.get('etag'));
    expect(created.headers.get('last-modified')).toBe(read.headers.get('last-modified'));

    const patched = await send('PATCH', location, {
      token: admin,
      headers: { 'If-Match': read.headers.get('etag') ?? '' },
      json: { age: 40 },
    });
    expect(patched.status).toBe(200);
    const reread = await send('GET', location, { token: admin });
    expect(patched.headers.get('etag')).toBe(reread.headers.get('etag'));
    expect(patched.headers.get('etag')).not.toBe(read.headers.get('etag'));

    const stale = await send('DELETE', location, {
      token: admin,
      headers: { 'If-Match': read.headers.get('etag') ?? '' },
    });
    expect(stale.status).toBe(412);
    const replaced = await send('PUT', location, {
      token: admin,
      headers: { 'If-Match': reread.headers.get('etag') ?? '' },
      json: { name: 'Eve', email: 'eve@example.com' },
    });
    expect(replaced.status).toBe(200);
    expect(replaced.headers.get('etag')).toBeNull();
    expect(replaced.headers.get('last-modified')).toBeNull();
  });

  it('creates with PUT at an absent id: 201 with Location under /api/v1', async () => {
    const res = await send('PUT', '/api/users/77', {
      token: admin,
      headers: { 'If-None-Match': '*' },
      json: { name: 'Zed', email: 'zed@example.com' },
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('location')).toBe('/api/v1/users/77');
  });

  it('answers If-Modified-Since with 304 unless If-None-Match says otherwise', async () => {
    const lastModified =
      (await send('GET', '/api/v1/users/2', { token: user })).headers.get('last-modified') ?? '';
    const ims = { 'If-Modified-Since': lastModified };
    expect((await send('GET', '/api/v1/users/2', { token: user, headers: ims })).status).toBe(304);
    const both = { ...ims, 'If-None-Match': '"stale"' };
    expect((await send('GET', '/api/v1/users/2', { token: user, headers: both })).status).toBe(200);
  });

  it('sends Vary: Authorization, Accept and adds Origin when a listed origin is echoed', async () => {
    const listed = build({ corsOrigins: ['https://app.example'] });
    const res = await send(
      'GET',
      '/api/v1/users/2',
      { token: user, headers: { Origin: 'https://app.example' } },
      listed,
    );
    expect(res.headers.get('vary')).toBe('Authorization, Accept, Origin');
    expect(res.headers.get('access-control-allow-origin')).toBe('https://app.example');
    const other = await send(
      'GET',
      '/api/v1/users/2',
      { token: user, headers: { Origin: 'https://evil.example' } },
      listed,
    );
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('marks every problem no-store and every 400 with errors[]', async () => {
    for (const target of ['/api/v1/users?size=500', '/api/v1/users/x', '/api/v1/users?foo=1']) {
      const res = await send('GET', target, { token: admin });
      expect(res.status, target).toBe(400);
      expect(res.headers.get('cache-control'), target).toBe('no-store');
      expect(problem(res).errors?.length, target).toBeGreaterThan(0);
    }
  });

  it('reports every query error at once with their pointers', async () => {
    const res = await send('GET', '/api/v1/users?size=500&page=05&foo=1&status=x', {
      token: admin,
    });
    expect(pointers(res)).toEqual([
      '#/query/foo',
      '#/query/page',
      '#/query/size',
      '#/query/status',
    ]);
  });

  it('refuses expand outside GET /orders/{id}', async () => {
    const res = await send('GET', '/api/v1/users/2/orders/1?expand=items', { token: admin });
    expect(pointers(res)).toEqual(['#/query/expand']);
  });

  it('refuses a bodiless action with a body other than {} (400) and takes {} or nothing', async () => {
    expect(
      (await send('POST', '/api/v1/users/3/activate', { token: admin, json: { now: true } }))
        .status,
    ).toBe(400);
    expect(
      (await send('POST', '/api/v1/users/3/activate', { token: admin, json: {} })).status,
    ).toBe(200);
    expect((await send('POST', '/api/v1/users/3/activate', { token: admin })).status).toBe(200);
    const noType = await send('POST', '/api/v1/users/3/activate', { token: admin, body: '{}' });
    expect(noType.status).toBe(415);
  });
});

describe('createApi: Idempotency-Key', () => {
  const body = { name: 'Ida', email: 'ida@example.com' };

  it('replays status and body for the same key and body (as parsed JSON), creating nothing more', async () => {
    const headers = { 'Idempotency-Key': 'k-1' };
    const first = await send('POST', '/api/v1/users', { token: admin, headers, json: body });
    expect(first.status).toBe(201);
    const again = await send('POST', '/api/users', {
      token: admin,
      headers,
      json: { email: body.email, name: body.name },
    });
    expect(again.status).toBe(201);
    expect(again.body).toBe(first.body);
    expect(Object.keys(tc.store.data.users)).toHaveLength(5);
  });

  it.each(['location', 'content-type', 'etag', 'last-modified', 'cache-control'])(
    'replays the %s header of the first answer',
    async (name) => {
      const headers = { 'Idempotency-Key': 'k-headers' };
      const first = await send('POST', '/api/v1/users', { token: admin, headers, json: body });
      expect(first.headers.get(name)).not.toBeNull();
      const again = await send('POST', '/api/v1/users', { token: admin, headers, json: body });
      expect(again.headers.get(name)).toBe(first.headers.get(name));
    },
  );

  it('answers 422 to the same key with another body', async () => {
    const headers = { 'Idempotency-Key': 'k-1' };
    expect(
      (await send('POST', '/api/v1/users', { token: admin, headers, json: body })).status,
    ).toBe(201);
    const other = await send('POST', '/api/v1/users', {
      token: admin,
      headers,
      json: { ...body, age: 30 },
    });
    expect(other.status).toBe(422);
    expect(Object.keys(tc.store.data.users)).toHaveLength(5);
  });

  it('answers 409 while the first request with the key is still being handled', async () => {
    const slow: Store = {
      get data() {
        return tc.store.data;
      },
      write: async (mutate) => {
        await new Promise((resolve) => setTimeout(resolve, 20));
        return tc.store.write(mutate);
      },
      close: () => tc.store.close(),
    };
    const slowApi = createApi({
      ctx: { ...ctx, repo: createDatasetRepository(slow) },
      spec,
      documents: DOCUMENTS,
    });
    const headers = { 'Idempotency-Key': 'k-slow' };
    const first = send('POST', '/api/v1/users', { token: admin, headers, json: body }, slowApi);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await send(
      'POST',
      '/api/v1/users',
      { token: admin, headers, json: body },
      slowApi,
    );
    expect(second.status).toBe(409);
    expect((await first).status).toBe(201);
    expect(Object.keys(tc.store.data.users)).toHaveLength(5);
  });

  // An order created but answered 503 (its idempotency record could not be stored) invites a
  // retry with the same key, which must not create the order a second time.
  it('never creates twice under one key when remembering the answer fails', async () => {
    let writes = 0;
    const flaky: Store = {
      get data() {
        return tc.store.data;
      },
      write: (mutate) =>
        // 1: the key's claim, 2: the order, 3: the answer remembered.
        ++writes === 3
          ? Promise.reject(new StoreUnavailableError('disk full'))
          : tc.store.write(mutate),
      close: () => tc.store.close(),
    };
    const flakyApi = createApi({
      ctx: { ...ctx, repo: createDatasetRepository(flaky) },
      spec,
      documents: DOCUMENTS,
    });
    const headers = { 'Idempotency-Key': 'k-flaky' };
    const order = { product: 'Pen', categoryId: 1 };
    const before = Object.keys(tc.store.data.orders).length;
    const first = await send(
      'POST',
      '/api/v1/users/2/orders',
      { token: admin, headers, json: order },
      flakyApi,
    );
    const retry = await send(
      'POST',
      '/api/v1/users/2/orders',
      { token: admin, headers, json: order },
      flakyApi,
    );
    expect(Object.keys(tc.store.data.orders)).toHaveLength(before + 1);
    expect([first.status, retry.status]).toContain(201);
  });

  it('scopes keys to the caller', async () => {
    const headers = { 'Idempotency-Key': 'shared' };
    expect(
      (await send('POST', '/api/v1/users', { token: admin, headers, json: body })).status,
    ).toBe(201);
    const res = await send('POST', '/api/v1/users', {
      token: user,
      headers,
      json: { ...body, email: 'x@example.com' },
    });
    expect(res.status).toBe(201);
  });

  it('remembers a domain problem (409) and replays it', async () => {
    const headers = { 'Idempotency-Key': 'k-2' };
    const dup = { name: 'Bob 2', email: 'BOB@example.com' };
    expect((await send('POST', '/api/v1/users', { token: admin, headers, json: dup })).status).toBe(
      409,
    );
    delete tc.store.data.users['2'];
    expect((await send('POST', '/api/v1/users', { token: admin, headers, json: dup })).status).toBe(
      409,
    );
  });

  it('remembers nothing for a request that failed validation', async () => {
    const headers = { 'Idempotency-Key': 'k-3' };
    const invalid = await send('POST', '/api/v1/users', {
      token: admin,
      headers,
      json: { name: '' },
    });
    expect(invalid.status).toBe(400);
    expect(
      (await send('POST', '/api/v1/users', { token: admin, headers, json: body })).status,
    ).toBe(201);
  });

  it('refuses a key over 255 characters at #/header/Idempotency-Key', async () => {
    const res = await send('POST', '/api/v1/users', {
      token: admin,
      headers: { 'Idempotency-Key': 'k'.repeat(256) },
      json: body,
    });
    expect(res.status).toBe(400);
    expect(pointers(res)).toEqual(['#/header/Idempotency-Key']);
  });
});
