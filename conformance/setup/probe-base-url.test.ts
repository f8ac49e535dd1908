import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../../spec/load-spec.js';
import { listOperations } from '../../spec/operations.js';
import { ConformanceSetupError } from '../conformance-options.js';
import { TargetClient } from '../http/target-client.js';
import { probeBaseUrl } from './probe-base-url.js';

/** A spec of another API, served under /shop/v2: nothing of the User/Order contract. */
const spec = {
  openapi: '3.0.3',
  info: { title: 'Shop', version: '2' },
  servers: [{ url: 'https://shop.example/shop/v2' }],
  paths: {
    '/items': {
      get: {
        operationId: 'listItems',
        security: [],
        responses: {
          '200': {
            description: 'items',
            content: { 'application/json': { schema: { type: 'array' } } },
          },
        },
      },
    },
  },
} as unknown as OpenApiDocument;

/** Serves the API under /shop/v2 and an HTML page everywhere else (a SPA's fallback). */
let server: Server;
let origin: string;
beforeAll(async () => {
  server = createServer((req, res) => {
    if (req.url === '/shop/v2/items')
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    else res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><p>app</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

async function probe(baseUrl: string): Promise<unknown> {
  const client = new TargetClient({ baseUrl, pace: false });
  try {
    await probeBaseUrl(client, spec, listOperations(spec));
    return undefined;
  } catch (error) {
    return error;
  } finally {
    await client.close();
  }
}

describe('probeBaseUrl', () => {
  it("names the URL under the spec's server path when only it answers like the API", async () => {
    const error = await probe(origin);
    expect(error).toBeInstanceOf(ConformanceSetupError);
    expect((error as Error).message).toBe(
      `give the API's base URL ${origin}/shop/v2, not ${origin}: the spec's servers[0] puts the API under /shop/v2 (GET ${origin}/shop/v2/items answered 200 as documented, GET ${origin}/items 200 text/html)`,
    );
  });

  it('sends nothing and passes when the base URL ends with the server path', async () => {
    expect(await probe(`${origin}/shop/v2`)).toBeUndefined();
    expect(await probe(`${origin}/gateway/shop/v2`)).toBeUndefined();
  });

  it('passes a base URL under which the server path answers no better', async () => {
    expect(await probe(`${origin}/elsewhere`)).toBeUndefined();
  });
});
