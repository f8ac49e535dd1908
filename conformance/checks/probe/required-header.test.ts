import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../run-conformance.js';

/** A one-operation API whose GET /things requires an `X-Tenant` header. */
const SPEC = {
  openapi: '3.0.3',
  info: { title: 'Tenants', version: '1.0.0' },
  servers: [{ url: 'http://localhost/api' }],
  paths: {
    '/things': {
      get: {
        operationId: 'listThings',
        parameters: [
          {
            name: 'X-Tenant',
            in: 'header',
            required: true,
            schema: { type: 'string' },
            example: 't1',
          },
          { name: 'X-Trace', in: 'header', required: false, schema: { type: 'string' } },
        ],
        responses: {
          '200': {
            description: 'ok',
            content: { 'application/json': { schema: { type: 'array' } } },
          },
          '400': {
            description: 'bad',
            content: { 'application/problem+json': { schema: { type: 'object' } } },
          },
        },
      },
    },
  },
};

describe('missing_required_header', () => {
  let dir: string;
  let server: Server;
  let base: string;
  let checkHeader = true;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'probe-header-'));
    writeFileSync(join(dir, 'spec.json'), JSON.stringify(SPEC));
    server = createServer((req, res) => {
      const refuse = checkHeader && !req.headers['x-tenant'];
      res.writeHead(refuse ? 400 : 200, {
        'content-type': refuse ? 'application/problem+json' : 'application/json',
      });
      res.end(refuse ? JSON.stringify({ type: 'about:blank', title: 'Bad', status: 400 }) : '[]');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  // The check's own results: operation_implemented, which runs first, judges the route.
  const run = async () => {
    const report = await runConformance({
      baseUrl: base,
      specPath: join(dir, 'spec.json'),
      checks: ['missing_required_header'],
      seed: 1,
    });
    return { results: report.results.filter((r) => r.check === 'missing_required_header') };
  };

  it('passes when the server refuses a request without the header', async () => {
    checkHeader = true;
    const report = await run();
    expect(report.results).toEqual([
      expect.objectContaining({ status: 'passed', operationId: 'listThings' }),
    ]);
  });

  it('fails when the server ignores the missing header', async () => {
    checkHeader = false;
    const report = await run();
    expect(report.results).toEqual([
      expect.objectContaining({
        status: 'failed',
        message: expect.stringContaining('X-Tenant'),
        curl: expect.not.stringContaining('X-Tenant'),
      }),
    ]);
  });
});
