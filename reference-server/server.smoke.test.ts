import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundledSpecJsonPath } from '../spec/bundled-spec.js';
import { specPath } from '../spec/spec-path.js';
import { loadSpec } from '../spec/load-spec.js';
import { ResponseValidator } from '../spec/response-validator.js';
import { startTestServer, type TestServer } from '../test/start-test-server.js';

let server: TestServer;
let validator: ResponseValidator;

beforeAll(async () => {
  server = await startTestServer();
  validator = new ResponseValidator(await loadSpec());
});
afterAll(() => server.close());

describe('reference server smoke', () => {
  it('serves /healthz without a token', async () => {
    const res = await fetch(`${server.url}/healthz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('serves the contract: the bundle as compact JSON and the description as YAML', async () => {
    const json = await fetch(`${server.url}/openapi.json`);
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    const bundle = readFileSync(bundledSpecJsonPath, 'utf8');
    expect(await json.text()).toBe(JSON.stringify(JSON.parse(bundle)));
    const yaml = await fetch(`${server.url}/openapi.yaml`);
    expect(yaml.headers.get('content-type')).toMatch(/^application\/yaml/);
    expect(await yaml.text()).toBe(readFileSync(specPath, 'utf8'));
  });

  it('creates a user: 201, Location resolves to it, body valid against the spec', async () => {
    const res = await fetch(`${server.api}/users`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.adminToken}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Smoke Test', email: 'smoke@example.com', age: 30 }),
    });
    const body = await res.text();
    expect(res.status).toBe(201);
    expect(
      validator.validate('createUser', { status: res.status, headers: res.headers, body }),
    ).toEqual([]);
    const location = res.headers.get('location');
    expect(location).toBe(`/api/v1/users/${JSON.parse(body).id}`);
    const read = await fetch(`${server.url}${location}`, {
      headers: { Authorization: `Bearer ${server.adminToken}` },
    });
    expect(await read.json()).toEqual(JSON.parse(body));
  });
});
