import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOCK_DEMO_PASSWORDS } from '../mock-context.js';
import type { ContractViolationError } from '../create-mock-api.js';
import { startMockServer, type RunningMockServer } from './start-mock-server.js';

const SECRET = 'mock-server-test-secret-0123456789-0123456789';
let server: RunningMockServer;
const violations: string[] = [];

beforeAll(async () => {
  server = await startMockServer({
    port: 0,
    jwtSecret: SECRET,
    adminPassword: MOCK_DEMO_PASSWORDS.admin,
    userPassword: MOCK_DEMO_PASSWORDS.user,
    passwordIterations: 1000,
    onViolation: (error: ContractViolationError, request) =>
      violations.push(`${request.method} ${request.path}: ${error.message}`),
  });
});
afterAll(() => server?.close());

async function login(url: string, username = 'admin@example.com') {
  const res = await fetch(`${url}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      username,
      password: username.startsWith('admin') ? MOCK_DEMO_PASSWORDS.admin : MOCK_DEMO_PASSWORDS.user,
    }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { accessToken: string }).accessToken;
}

describe('startMockServer: the MSW mocks over real HTTP', () => {
  it('listens on 127.0.0.1 and answers the open routes', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(await health.json()).toEqual({ status: 'ok' });
    expect(health.headers.get('x-request-id')).toBeTruthy();
    const doc = await fetch(`${server.url}/openapi.json`);
    expect(((await doc.json()) as { openapi: string }).openapi).toMatch(/^3\./);
    const yaml = await fetch(`${server.url}/openapi.yaml`);
    expect(yaml.headers.get('content-type')).toBe('application/yaml');
  });

  it('logs in, lists and creates through HTTP, statefully', async () => {
    const auth = { Authorization: `Bearer ${await login(server.url)}` };
    const list = await fetch(`${server.url}/api/v1/users?size=2`, { headers: auth });
    expect(list.status).toBe(200);
    expect(list.headers.get('etag')).toMatch(/^W\//);
    const before = ((await list.json()) as { totalElements: number }).totalElements;
    const created = await fetch(`${server.url}/api/v1/users`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Http Person', email: 'http-person@example.com' }),
    });
    expect(created.status).toBe(201);
    const read = await fetch(new URL(created.headers.get('location')!, server.url), {
      headers: auth,
    });
    expect(((await read.json()) as { name: string }).name).toBe('Http Person');
    const after = await fetch(`${server.url}/api/v1/users?size=1`, { headers: auth });
    expect(((await after.json()) as { totalElements: number }).totalElements).toBe(before + 1);
  });

  it('answers Prefer over HTTP: a documented status, or a generated body that changes the state not', async () => {
    const auth = { Authorization: `Bearer ${await login(server.url)}` };
    const count = async () => {
      const res = await fetch(`${server.url}/api/v1/users?size=1`, { headers: auth });
      return ((await res.json()) as { totalElements: number }).totalElements;
    };
    const before = await count();
    const canned = await fetch(`${server.url}/api/v1/users`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json', Prefer: 'code=201, dynamic=true' },
      body: JSON.stringify({ name: 'Never Stored', email: 'never-stored@example.com' }),
    });
    expect(canned.status).toBe(201);
    expect(canned.headers.get('location')).toMatch(/\/users\/\d+$/);
    expect(((await canned.json()) as { id: unknown }).id).toEqual(expect.any(Number));
    expect(await count()).toBe(before);
    expect(violations).toEqual([]);
  });

  it('answers the contract’s errors as problem+json, HEAD without a body, 204 without one', async () => {
    const unauth = await fetch(`${server.url}/api/v1/users`);
    expect(unauth.status).toBe(401);
    expect(unauth.headers.get('content-type')).toBe('application/problem+json');
    expect(unauth.headers.get('www-authenticate')).toBe('Bearer realm="api"');
    const nowhere = await fetch(`${server.url}/nowhere`);
    expect(nowhere.status).toBe(404);
    expect(((await nowhere.json()) as { instance: string }).instance).toBe('/nowhere');
    const auth = { Authorization: `Bearer ${await login(server.url)}` };
    const head = await fetch(`${server.url}/api/v1/users/1`, { method: 'HEAD', headers: auth });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const options = await fetch(`${server.url}/api/v1/users`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.get('allow')).toContain('POST');
  });

  it('keeps the bytes of a non-ASCII body intact both ways', async () => {
    const auth = { Authorization: `Bearer ${await login(server.url)}` };
    const name = 'Zoë Ünicode 测试 🚀';
    const created = await fetch(`${server.url}/api/v1/users`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, email: 'zoe-unicode@example.com' }),
    });
    expect(created.status).toBe(201);
    const body = Buffer.from(await created.arrayBuffer());
    expect(Number(created.headers.get('content-length'))).toBe(body.length);
    expect((JSON.parse(body.toString('utf8')) as { name: string }).name).toBe(name);
  });

  it('turns an answer the contract forbids into a 500 naming the violation', async () => {
    const auth = { Authorization: `Bearer ${await login(server.url)}` };
    // A canned answer missing required fields: the mocks refuse to send it.
    server.mock.override('getUser', { status: 200, body: { id: 1 } } as never);
    const res = await fetch(`${server.url}/api/v1/users/1`, { headers: auth });
    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    const problem = (await res.json()) as { detail: string; violations: string[] };
    expect(problem.detail).toContain('getUser answered 200');
    expect(problem.violations.length).toBeGreaterThan(0);
    expect(violations.at(-1)).toMatch(/^GET \/api\/v1\/users\/1: getUser answered 200/);
  });
});

describe('startMockServer options', () => {
  it('applies the latency to every answer', async () => {
    const slow = await startMockServer({
      port: 0,
      jwtSecret: SECRET,
      latency: 150,
      passwordIterations: 1000,
    });
    try {
      const started = performance.now();
      const res = await fetch(`${slow.url}/api/v1/users`);
      expect(res.status).toBe(401);
      // A lower bound only: slow machines may take longer, never less.
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    } finally {
      await slow.close();
    }
  });

  it('with auth off, requests without a token act as the admin; data empty seeds only logins', async () => {
    const open = await startMockServer({
      port: 0,
      jwtSecret: SECRET,
      auth: 'off',
      data: 'empty',
      passwordIterations: 1000,
    });
    try {
      const res = await fetch(`${open.url}/api/v1/users`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { totalElements: number }).totalElements).toBe(2);
      const admin = await fetch(`${open.url}/api/v1/admin/users/2/block`, { method: 'POST' });
      expect(admin.status).toBeLessThan(300);
    } finally {
      await open.close();
    }
  });

  it('refuses the demo passwords on a non-loopback address, like serve', async () => {
    await expect(startMockServer({ port: 0, host: '0.0.0.0', jwtSecret: SECRET })).rejects.toThrow(
      /demo passwords/,
    );
  });

  it('closes cleanly, twice, and stops listening', async () => {
    const once = await startMockServer({ port: 0, jwtSecret: SECRET, passwordIterations: 1000 });
    await fetch(`${once.url}/healthz`);
    await Promise.all([once.close(), once.close()]);
    await expect(fetch(`${once.url}/healthz`)).rejects.toThrow();
  });
});
