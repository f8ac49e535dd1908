import { Readable } from 'node:stream';
import type { Request } from 'express';
import { describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../core/pipeline/body-parser.js';
import { toApiRequest } from './to-api-request.js';

/** The parts of an Express request toApiRequest reads, with the body as chunks; no socket. */
function fakeRequest(
  originalUrl: string,
  {
    method = 'GET',
    headers = {},
    chunks = [],
    remoteAddress,
  }: {
    method?: string;
    headers?: Record<string, string | string[] | undefined>;
    chunks?: (string | Buffer)[];
    remoteAddress?: string;
  } = {},
): Request {
  const body = Readable.from(
    chunks.map((chunk) => (Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk))),
  );
  return Object.assign(body, {
    originalUrl,
    method,
    // As Node's parser delivers a request with a body: framed by a length or chunked.
    headers:
      method === 'GET' || 'content-length' in headers
        ? headers
        : { ...headers, 'transfer-encoding': 'chunked' },
    socket: { remoteAddress },
    // Express's req.ip: the socket's address, unless a trusted proxy forwarded the client's.
    ip: remoteAddress,
  }) as unknown as Request;
}

const text = (body: Uint8Array | null) => (body === null ? null : new TextDecoder().decode(body));

describe('toApiRequest', () => {
  it.each([
    { url: '/api/v1/users', path: '/api/v1/users', query: '' },
    { url: '/api/v1/users?page=1&size=2', path: '/api/v1/users', query: 'page=1&size=2' },
    { url: '/api/v1/users?', path: '/api/v1/users', query: '' },
    { url: '/api/v1/users?a=1?b=2', path: '/api/v1/users', query: 'a=1?b=2' },
    {
      url: '/api/v1/users/%31?sort=name%2Cdesc',
      path: '/api/v1/users/%31',
      query: 'sort=name%2Cdesc',
    },
    { url: '/healthz', path: '/healthz', query: '' },
  ])('splits $url into path and raw query', async ({ url, path, query }) => {
    const request = await toApiRequest(fakeRequest(url));
    expect(request.path).toBe(path);
    expect(request.query).toBe(query);
  });

  it('keeps the method and every header, repeated ones joined', async () => {
    const request = await toApiRequest(
      fakeRequest('/x', {
        method: 'PATCH',
        headers: {
          'content-type': 'application/merge-patch+json',
          'x-forwarded-for': ['10.0.0.1', '10.0.0.2'],
          'if-match': '"a"',
          'x-absent': undefined,
        },
      }),
    );
    expect(request.method).toBe('PATCH');
    expect(request.headers.get('Content-Type')).toBe('application/merge-patch+json');
    expect(request.headers.get('x-forwarded-for')).toBe('10.0.0.1, 10.0.0.2');
    expect(request.headers.get('If-Match')).toBe('"a"');
    expect(request.headers.has('x-absent')).toBe(false);
  });

  it.each([
    { name: 'no chunks', chunks: [], body: null },
    { name: 'one empty chunk', chunks: [''], body: null },
    { name: 'one chunk', chunks: ['{"a":1}'], body: '{"a":1}' },
    { name: 'several chunks', chunks: ['{"a"', ':', '1}'], body: '{"a":1}' },
  ])('reads the body from $name', async ({ chunks, body }) => {
    const request = await toApiRequest(fakeRequest('/x', { method: 'POST', chunks }));
    expect(text(request.body)).toBe(body);
    expect(request.bodyTooLarge).toBe(false);
  });

  it('reads no stream at all for a request without Content-Length or Transfer-Encoding', async () => {
    const request = await toApiRequest({
      originalUrl: '/x',
      method: 'GET',
      headers: { accept: 'application/json' },
      socket: {},
      [Symbol.asyncIterator]() {
        throw new Error('a bodiless request was read');
      },
    } as unknown as Request);
    expect(request.body).toBeNull();
    expect(request.bodyTooLarge).toBe(false);
  });

  it('reads the body of a request framed by Content-Length', async () => {
    const request = await toApiRequest(
      fakeRequest('/x', { method: 'PUT', headers: { 'content-length': '7' }, chunks: ['{"a":1}'] }),
    );
    expect(text(request.body)).toBe('{"a":1}');
  });

  it('keeps the body bytes exactly, invalid UTF-8 included', async () => {
    const bytes = Buffer.from([0x7b, 0xff, 0xfe, 0x7d]);
    const request = await toApiRequest(fakeRequest('/x', { method: 'POST', chunks: [bytes] }));
    expect([...(request.body ?? [])]).toEqual([0x7b, 0xff, 0xfe, 0x7d]);
  });

  it.each([
    { name: 'exactly the limit', sizes: [MAX_BODY_BYTES], tooLarge: false },
    { name: 'one byte over, in one chunk', sizes: [MAX_BODY_BYTES + 1], tooLarge: true },
    { name: 'one byte over, across chunks', sizes: [MAX_BODY_BYTES, 1], tooLarge: true },
    { name: 'far over, in many chunks', sizes: [65_536, 65_536, 65_536, 65_536], tooLarge: true },
  ])(
    'flags a body of $name: tooLarge=$tooLarge, without refusing it here',
    async ({ sizes, tooLarge }) => {
      const chunks = sizes.map((n) => Buffer.alloc(n, 0x61));
      const request = await toApiRequest(fakeRequest('/x', { method: 'POST', chunks }));
      expect(request.bodyTooLarge).toBe(tooLarge);
      expect(request.body).not.toBeNull();
      // Only a little more than the limit is kept in memory, however much was sent.
      expect(request.body?.length ?? 0).toBeLessThanOrEqual(MAX_BODY_BYTES + 65_536);
    },
  );

  it.each([
    { name: 'with an address', remoteAddress: '127.0.0.1', expected: '127.0.0.1' },
    { name: 'without one', remoteAddress: undefined, expected: undefined },
  ])('passes the client address (req.ip) $name', async ({ remoteAddress, expected }) => {
    const request = await toApiRequest(
      fakeRequest('/x', remoteAddress === undefined ? {} : { remoteAddress }),
    );
    expect(request.clientAddress).toBe(expected);
    if (expected === undefined) expect(request).not.toHaveProperty('clientAddress');
  });

  it('rejects when the request closes before its body ended (the client went away)', async () => {
    const req = fakeRequest('/x', { method: 'POST', chunks: [] });
    const stalled = new Readable({ read() {} });
    Object.assign(stalled, { originalUrl: '/x', method: 'POST', headers: req.headers, socket: {} });
    const reading = toApiRequest(stalled as unknown as Request);
    stalled.push(Buffer.from('{"half":'));
    stalled.destroy();
    await expect(reading).rejects.toThrow(/aborted/);
  });

  it('rejects with the stream error when the body fails', async () => {
    const failing = new Readable({ read() {} });
    Object.assign(failing, {
      originalUrl: '/x',
      method: 'POST',
      headers: { 'content-length': '10' },
      socket: {},
    });
    const reading = toApiRequest(failing as unknown as Request);
    failing.destroy(new Error('socket hang up'));
    await expect(reading).rejects.toThrow('socket hang up');
  });
});
