import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running prefix proxy. */
export interface PathPrefixProxy {
  /** The base URL to give the runner: the proxy's origin plus the prefix. */
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * A transparent HTTP forwarder that serves `upstream` (an origin such as Prism's, whose paths
 * hang directly below `/`) under `prefix`: `/prefix/pets/1` goes to `upstream/pets/1`. Paths
 * without the prefix (e.g. a `Location: /pets/3` that a client follows) are forwarded as they
 * are. Method, headers, body and the answer pass through unchanged.
 *
 * Why: the runner cannot take a base URL without a path (it sends its reachability probe with
 * an empty request path, which undici refuses with UND_ERR_INVALID_ARG), and Prism ignores the
 * servers' base path, so it can only be reached at its bare origin.
 */
export async function startPathPrefixProxy(
  upstream: string,
  prefix = '/petstore',
): Promise<PathPrefixProxy> {
  const target = new URL(upstream);
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let path = req.url ?? '/';
    if (path === prefix || path.startsWith(`${prefix}/`) || path.startsWith(`${prefix}?`))
      path = path.slice(prefix.length) || '/';
    if (path.startsWith('?')) path = `/${path}`;
    const forward = request(
      {
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`prefix proxy: ${error.message}`);
    });
    req.pipe(forward);
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}${prefix}`,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
