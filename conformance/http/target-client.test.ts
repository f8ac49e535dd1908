import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TargetClient, TargetUnreachableError } from './target-client.js';

let server: Server;
let base: string;
let busyAnswers = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = req.url ?? '';
    if (url === '/api/slow') return; // never answers
    if (url === '/api/bom') {
      res.setHeader('Content-Type', 'application/json');
      res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":"é"}')]));
      return;
    }
    if (url === '/api/busy' && busyAnswers++ === 0) {
      res.writeHead(429, { 'Retry-After': '0', 'Content-Type': 'text/plain' });
      res.end('slow down');
      return;
    }
    if (url === '/api/chunked') {
      res.write('{"part":');
      setTimeout(() => res.end('"two"}'), 5);
      return;
    }
    let body = '';
    req.setEncoding('utf8').on('data', (c: string) => (body += c));
    req.on('end', () => {
      res.setHeader('X-Method', req.method ?? '');
      res.setHeader('Vary', ['Accept', 'Authorization']);
      res.setHeader('Set-Cookie', ['a=1', 'b=2']);
      res.writeHead(url.startsWith('/api/missing') ? 404 : 200, {
        'Content-Type': 'text/plain',
      });
      res.end(req.method === 'HEAD' ? undefined : `${req.method} ${url} ${body}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('TargetClient', () => {
  it('tells its listeners of every answer, a 429 it waits out and retries too', async () => {
    const client = new TargetClient({ baseUrl: base });
    const heard: [number, string, boolean][] = [];
    const stop = client.listen((exchange, planned, final) =>
      heard.push([exchange.response.status, planned.path, final]),
    );
    const exchange = await client.send({ method: 'GET', path: '/busy' });
    expect(exchange.response.status).toBe(200);
    expect(heard).toEqual([
      [429, '/busy', false],
      [200, '/busy', true],
    ]);
    stop();
    await client.send({ method: 'GET', path: '/busy' });
    expect(heard).toHaveLength(2);
    await client.close();
  });

  it('answers status, headers (case-insensitive, repeated ones kept) and the body as text', async () => {
    const seen: number[] = [];
    const client = new TargetClient({
      baseUrl: base,
      onExchange: (e) => seen.push(e.response.status),
    });
    const exchange = await client.send({
      method: 'POST',
      path: '/things?x=1',
      headers: { 'Content-Type': 'text/plain' },
      body: 'hello',
    });
    expect(exchange.request).toEqual({
      method: 'POST',
      url: `${base}/things?x=1`,
      headers: { 'Content-Type': 'text/plain' },
      body: 'hello',
    });
    expect(exchange.response.status).toBe(200);
    expect(exchange.response.body).toBe('POST /api/things?x=1 hello');
    expect(exchange.headers.get('x-method')).toBe('POST');
    expect(exchange.headers.get('VARY')).toBe('Accept, Authorization');
    expect(exchange.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(exchange.response.headers['content-type']).toBe('text/plain');
    expect(exchange.response.durationMs).toBeGreaterThanOrEqual(0);
    const missing = await client.send({ method: 'GET', path: '/missing' });
    expect(missing.response.status).toBe(404);
    expect(client.count).toBe(2);
    expect(seen).toEqual([200, 404]);
    await client.close();
  });

  it('reads a HEAD answer without a body, a body in several chunks, and skips a BOM', async () => {
    const client = new TargetClient({ baseUrl: base });
    const head = await client.send({ method: 'HEAD', path: '/x' });
    expect([head.response.status, head.response.body]).toEqual([200, '']);
    const chunked = await client.send({ method: 'GET', path: '/chunked' });
    expect(chunked.response.body).toBe('{"part":"two"}');
    const bom = await client.send({ method: 'GET', path: '/bom' });
    expect(bom.response.body).toBe('{"a":"é"}');
    await client.close();
  });

  it('throws TargetUnreachableError on a timeout and on a closed port', async () => {
    const slow = new TargetClient({ baseUrl: base, timeoutMs: 50 });
    await expect(slow.send({ method: 'GET', path: '/slow' })).rejects.toThrow(
      TargetUnreachableError,
    );
    await slow.close().catch(() => undefined);
    const closed = new TargetClient({ baseUrl: 'http://127.0.0.1:1/api' });
    await expect(closed.send({ method: 'GET', path: '/x' })).rejects.toThrow(
      /GET http:\/\/127\.0\.0\.1:1\/api\/x failed: ECONNREFUSED/,
    );
    expect(closed.count).toBe(0);
    await closed.close();
  });
});
