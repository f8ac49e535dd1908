import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundledSpec } from '../spec/bundled-spec.js';
import type { Schema } from '../spec/schema/effective-schema.js';
import { createSchemaValidator } from '../spec/schema/schema-validator.js';
import { createServer, type RunningServer } from './create-server.js';

/*
 * `/readyz` (decision 0111): 200 while the server takes requests; from the first step of a stop
 * (the drain delay) 503 problem+json while the API still answers, each answer closing its
 * connection; 503 through the drain. `/healthz` stays liveness only.
 */

let server: RunningServer;

beforeAll(async () => {
  server = await createServer({ port: 0, memory: true, rateLimit: 0, loginRateLimit: 0 });
});
afterAll(() => server.close());

describe('GET /readyz', () => {
  it('is 200 {"status":"ready"} while serving, never cached', async () => {
    const res = await fetch(`${server.url}/readyz`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'ready' });
    const head = await fetch(`${server.url}/readyz`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    const post = await fetch(`${server.url}/readyz`, { method: 'POST' });
    expect(post.status).toBe(405);
    await post.arrayBuffer();
  });

  it('is 503 from stopReadiness on, while the API and /healthz still answer', async () => {
    server.stopReadiness();
    const ready = await fetch(`${server.url}/readyz`);
    expect(ready.status).toBe(503);
    expect(ready.headers.get('content-type')).toBe('application/problem+json');
    expect(ready.headers.get('retry-after')).toBe('1');
    const body = (await ready.json()) as Record<string, unknown>;
    const problem = (await loadBundledSpec()).spec.components?.schemas?.Problem as Schema;
    expect(createSchemaValidator('response').errors(problem, body)).toEqual([]);
    expect(body).toMatchObject({
      type: 'urn:apikit:problem:service-unavailable',
      instance: '/readyz',
      requestId: ready.headers.get('x-request-id'),
    });
    expect(body.detail).toMatch(/stopping/);
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(200);
    expect(health.headers.get('connection')).toBe('close');
    await health.arrayBuffer();
    const api = await fetch(`${server.url}/api/v1/roles`);
    expect(api.status).not.toBe(503);
    await api.arrayBuffer();
  });
});
