import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { specPath } from '../../spec/spec-path.js';
import { serverBasePath, startPrismMock, type RunningPrismMock } from './start-prism-mock.js';

let mock: RunningPrismMock;
beforeAll(async () => {
  mock = await startPrismMock({ specPath, port: 0 });
}, 60_000);
afterAll(() => mock?.close());

const auth = { Authorization: 'Bearer any-token' };
const json = { 'Content-Type': 'application/json' };

describe('startPrismMock: Prism under the reference server URL layout', () => {
  it('serves the API under /api/v1 and the /api alias, not at the root', async () => {
    for (const base of ['/api/v1', '/api']) {
      const res = await fetch(`${mock.url}${base}/users`, { headers: auth });
      expect(res.status, base).toBe(200);
      const page = (await res.json()) as { content: { email: string }[] };
      expect(page.content[0]?.email).toBe('admin@example.com');
    }
    const root = await fetch(`${mock.url}/users`, { headers: auth });
    expect(root.status).toBe(404);
    expect(await root.json()).toMatchObject({ type: 'urn:apikit:problem:not-found', status: 404 });
  });

  it('answers an invalid POST with the contract 400: validation-failed, errors[], its own ids', async () => {
    const res = await fetch(`${mock.url}/api/v1/users`, {
      method: 'POST',
      headers: { ...auth, ...json, 'X-Request-Id': 'req-invalid-1' },
      body: JSON.stringify({ name: '' }),
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(res.headers.get('x-request-id')).toBe('req-invalid-1');
    const body = (await res.json()) as Record<string, unknown> & {
      errors: { pointer: string; detail: string }[];
    };
    expect(body).toMatchObject({
      type: 'urn:apikit:problem:validation-failed',
      status: 400,
      instance: '/api/v1/users',
      requestId: 'req-invalid-1',
    });
    const pointers = body.errors.map((e) => e.pointer);
    expect(pointers).toEqual(expect.arrayContaining(['#/name', '#/email']));
    expect(body.errors.every((e) => e.detail.length > 0)).toBe(true);
  });

  it('accepts expand in both forms, as the contract does (decision 0102)', async () => {
    for (const query of ['expand=user,items', 'expand=user&expand=items', 'expand=user,user']) {
      const res = await fetch(`${mock.url}/api/v1/orders/1?${query}`, { headers: auth });
      expect(res.status, query).toBe(200);
    }
    const unknown = await fetch(`${mock.url}/api/v1/orders/1?expand=user&expand=owner`, {
      headers: auth,
    });
    expect(unknown.status).toBe(400);
  });

  it('answers a missing token with 401 unauthenticated and its challenge', async () => {
    const res = await fetch(`${mock.url}/api/v1/users`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ name: 'Ann', email: 'ann@example.com', age: 30 }),
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await res.json()).toMatchObject({
      type: 'urn:apikit:problem:unauthenticated',
      status: 401,
      instance: '/api/v1/users',
    });
  });

  it("carries the request's own instance and id in a Prefer-canned problem", async () => {
    const res = await fetch(`${mock.url}/api/v1/users/1`, {
      headers: { ...auth, Prefer: 'code=404', 'X-Request-Id': 'req-canned-1' },
    });
    expect(res.status).toBe(404);
    expect(res.headers.get('x-request-id')).toBe('req-canned-1');
    expect(await res.json()).toMatchObject({
      type: 'urn:apikit:problem:not-found',
      status: 404,
      instance: '/api/v1/users/1',
      requestId: 'req-canned-1',
    });
  });

  it('answers an unknown API path with the contract 404, and HEAD without a body', async () => {
    const res = await fetch(`${mock.url}/api/v1/nothing-here`, { headers: auth });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({
      type: 'urn:apikit:problem:not-found',
      instance: '/api/v1/nothing-here',
    });
    const head = await fetch(`${mock.url}/api/v1/users`, { method: 'HEAD', headers: auth });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
  });

  it('serves the contract, /healthz, /docs and GET / beside the API', async () => {
    const spec = (await (await fetch(`${mock.url}/openapi.json`)).json()) as { openapi: string };
    expect(spec.openapi).toBe('3.0.3');
    expect((await fetch(`${mock.url}/openapi.yaml`)).status).toBe(200);
    expect(await (await fetch(`${mock.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const docs = await fetch(`${mock.url}/docs`);
    expect(docs.status).toBe(200);
    expect(await docs.text()).toContain('swagger-ui');
    const index = await fetch(`${mock.url}/`, { headers: { Accept: 'application/json' } });
    expect(await index.json()).toMatchObject({ docs: '/docs', api: '/api/v1' });
  });
});

describe('startPrismMock with a description of another API', () => {
  it("serves it under its first server's base path", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'apikit-prism-mock-'));
    const file = join(dir, 'things.yaml');
    await writeFile(
      file,
      `openapi: 3.0.3
info: { title: Things, version: 1.0.0 }
servers: [{ url: 'https://things.example/v2' }]
paths:
  /things/{id}:
    get:
      parameters: [{ name: id, in: path, required: true, schema: { type: integer } }]
      responses:
        '200':
          description: A thing.
          content: { application/json: { example: { id: 1 } } }
`,
    );
    const other = await startPrismMock({ specPath: file, port: 0 });
    try {
      expect(await (await fetch(`${other.url}/v2/things/1`)).json()).toEqual({ id: 1 });
      expect((await fetch(`${other.url}/things/1`)).status).toBe(404);
      expect((await fetch(`${other.url}/api/v1/things/1`)).status).toBe(404);
    } finally {
      await other.close();
      await rm(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('reads the base path of a server URL, variables at their defaults', () => {
    expect(
      serverBasePath({
        url: '{base_url}/api/v1',
        variables: { base_url: { default: 'http://localhost:3000' } },
      }),
    ).toBe('/api/v1');
    expect(serverBasePath({ url: 'https://x.example/' })).toBe('');
    expect(serverBasePath({ url: '/v3/' })).toBe('/v3');
    expect(serverBasePath(undefined)).toBe('');
  });
});
