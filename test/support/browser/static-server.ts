import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
};

/** A running static file server; `paths` lists every path it was asked for, in order. */
export interface StaticServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  paths: string[];
  close(): Promise<void>;
}

/**
 * Serves files (GET only) from `folders`, each path from the first folder that has it, on
 * 127.0.0.1 port 0: the service worker needs a page and a worker script of the same origin, and
 * 127.0.0.1 counts as a secure context. `/` serves `index.html`. No caching, no directory lists.
 *
 * @example
 * const server = await startStaticServer(['examples/browser', 'mocks/browser/public']);
 */
export async function startStaticServer(folders: string[]): Promise<StaticServer> {
  const paths: string[] = [];
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    paths.push(path);
    for (const folder of req.method === 'GET' ? folders : []) {
      const file = normalize(join(folder, path === '/' ? 'index.html' : path));
      if (!file.startsWith(normalize(folder) + sep)) continue; // no ../ out of the folder
      try {
        const body = await readFile(file);
        res.writeHead(200, {
          'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
          'Cache-Control': 'no-store',
        });
        res.end(body);
        return;
      } catch {
        // Not in this folder: try the next one.
      }
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end(`not found: ${path}`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    paths,
    close: () =>
      new Promise((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
