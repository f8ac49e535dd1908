import { createServer } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { drainServer } from './drain-server.js';
import { listenServer } from './listen-server.js';

const servers = [0, 1].map(() => createServer((_, res) => res.end('listening')));
afterEach(async () => {
  for (const server of servers) if (server.listening) await drainServer(server);
});

describe('listenServer', () => {
  it('resolves with the origin of a free port', async () => {
    const url = await listenServer(servers[0]!, 0, '127.0.0.1');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(await (await fetch(`${url}/`)).text()).toBe('listening');
  });

  it('rejects with the listen error when the port is taken, leaving no listener behind', async () => {
    const url = await listenServer(servers[0]!, 0, '127.0.0.1');
    const port = Number(new URL(url).port);
    await expect(listenServer(servers[1]!, port, '127.0.0.1')).rejects.toMatchObject({
      code: 'EADDRINUSE',
    });
    expect(servers[1]!.listenerCount('error')).toBe(0);
  });
});
