import { createServer, request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { drainServer, serverOrigin } from './drain-server.js';

describe('drainServer', () => {
  it('lets an in-flight request finish, then closes; the port refuses afterwards', async () => {
    let release!: () => void;
    const server = createServer((_req, res) => {
      release = () => res.end('done');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = serverOrigin(server, '127.0.0.1');
    const answered = new Promise<string>((resolve, reject) => {
      request(origin, { agent: false }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d));
        res.on('end', () => resolve(body));
      })
        .on('error', reject)
        .end();
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    const drained = drainServer(server, 5_000);
    release();
    expect(await answered).toBe('done');
    await drained;
    await expect(fetch(origin)).rejects.toThrow();
  });

  it('cuts a request that outlasts the drain time', async () => {
    const server = createServer(() => {
      /* never answers */
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const cut = fetch(serverOrigin(server, '127.0.0.1')).catch((error: unknown) => error);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await drainServer(server, 100);
    expect(await cut).toBeInstanceOf(Error);
  });
});

describe('serverOrigin', () => {
  it('puts an IPv6 address in brackets', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '::1', resolve));
    try {
      expect(serverOrigin(server, '::1')).toMatch(/^http:\/\/\[::1\]:\d+$/);
      expect(serverOrigin(server, '[::1]')).toMatch(/^http:\/\/\[::1\]:\d+$/);
    } finally {
      await drainServer(server);
    }
  });
});
