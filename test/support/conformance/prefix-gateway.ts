import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { forward, type ProxyResponse } from '../fault-injection/fault-proxy.js';

/** A gateway on 127.0.0.1, port 0: `url` is its origin. */
export interface PrefixGateway {
  url: string;
  close(): Promise<void>;
}

/**
 * A reverse proxy that serves an implementation under a path prefix, as an API gateway does:
 * `/svc/api/v1/users` is forwarded as `/api/v1/users`, and the path-absolute `Location`,
 * `Content-Location` and `Link` targets of the answers get the prefix back. Anything outside
 * the prefix is 404. For tests only.
 *
 * @example
 * const gateway = await startPrefixGateway(server.url, '/svc');
 * await runConformance({ baseUrl: `${gateway.url}/svc/api/v1`, ... });
 */
export async function startPrefixGateway(upstream: string, prefix: string): Promise<PrefixGateway> {
  const server = createServer((incoming, outgoing) => {
    void (async () => {
      const path = incoming.url ?? '/';
      if (!path.startsWith(`${prefix}/`)) {
        outgoing.writeHead(404, { 'content-type': 'text/plain' }).end('no route');
        return;
      }
      const res = await forward(upstream, {
        method: incoming.method ?? 'GET',
        path: path.slice(prefix.length),
        headers: requestHeaders(incoming),
        body: await readBody(incoming),
      });
      outgoing.writeHead(res.status, withPrefix(res, prefix).headers);
      outgoing.end(res.body);
    })().catch((error: Error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`gateway: ${error.message}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Request headers a proxy does not pass on (the forward sets its own length). */
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
]);

function withPrefix(res: ProxyResponse, prefix: string): ProxyResponse {
  const headers = { ...res.headers };
  for (const name of ['location', 'content-location'])
    if (headers[name]?.startsWith('/')) headers[name] = prefix + headers[name];
  if (headers.link) headers.link = headers.link.replace(/<\//g, `<${prefix}/`);
  return { ...res, headers };
}

function requestHeaders(incoming: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming.headers))
    if (value !== undefined && !HOP_BY_HOP.has(name))
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
  return headers;
}

async function readBody(incoming: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
