import type { Server } from 'node:http';
import { serverOrigin } from './drain-server.js';

/**
 * Listens on `port` and `host` (0 picks a free port) and resolves with the server's origin;
 * rejects with the listen error (EADDRINUSE, EACCES) instead of leaving it to an 'error' event.
 * For every server apikit starts (`serve`, both `mock` engines, `proxy`).
 *
 * @example
 * const url = await listenServer(server, 0, '127.0.0.1'); // 'http://127.0.0.1:41234'
 */
export async function listenServer(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.removeListener('error', reject);
      resolve();
    });
  });
  return serverOrigin(server, host);
}
