import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the proxy received it; `path` includes the query. */
export interface ProxyRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

export interface ProxyResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** How a deliberately wrong target departs from the implementation behind it. */
export interface Tamper {
  /** Changes the request before it is forwarded, or answers it without forwarding. */
  request?(req: ProxyRequest): ProxyRequest | ProxyResponse | Promise<ProxyRequest | ProxyResponse>;
  /** Changes the answer before it is sent back. */
  response?(res: ProxyResponse, req: ProxyRequest): ProxyResponse | Promise<ProxyResponse>;
}

const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'content-encoding',
]);

/**
 * A small HTTP proxy in front of an implementation that changes one behaviour, to prove that
 * a check fails on a target that gets that behaviour wrong. For tests only.
 *
 * @example
 * const proxy = await startTamperingProxy(server.url, {
 *   request: (req) => ({ ...req, headers: omit(req.headers, 'if-none-match') }),
 * });
 */
export async function startTamperingProxy(
  upstream: string,
  tamper: Tamper,
): Promise<{ url: string; close(): Promise<void> }> {
  // A header block over the implementation's limit (16 KiB) reaches it and gets its 431, as
  // behind a gateway allowing more: the proxy's own parser takes four times as much.
  const server = createServer({ maxHeaderSize: 64 * 1024 }, (incoming, outgoing) => {
    void (async () => {
      const original = await read(incoming);
      const changed = tamper.request ? await tamper.request(original) : original;
      let res = 'status' in changed ? changed : await forward(upstream, changed);
      if (tamper.response) res = await tamper.response(res, original);
      const bodiless = original.method === 'HEAD' || res.status === 204 || res.status === 304;
      outgoing.writeHead(res.status, res.headers);
      outgoing.end(bodiless ? undefined : res.body);
    })().catch((error: Error) => {
      outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`proxy: ${error.message}`);
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

/** Sends a request to the implementation behind the proxy. */
export async function forward(upstream: string, req: ProxyRequest): Promise<ProxyResponse> {
  const res = await fetch(upstream + req.path, {
    method: req.method,
    headers: req.headers,
    ...(req.body !== undefined && req.body !== '' ? { body: req.body } : {}),
    redirect: 'manual',
  });
  const headers: Record<string, string> = {};
  res.headers.forEach((value, name) => {
    if (!HOP_BY_HOP.has(name)) headers[name] = value;
  });
  return { status: res.status, headers, body: req.method === 'HEAD' ? '' : await res.text() };
}

/** The headers without the named ones (case-insensitive). */
export function omit(headers: Record<string, string>, ...names: string[]): Record<string, string> {
  const drop = new Set(names.map((n) => n.toLowerCase()));
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !drop.has(k.toLowerCase())));
}

async function read(incoming: IncomingMessage): Promise<ProxyRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return {
    method: incoming.method ?? 'GET',
    path: incoming.url ?? '/',
    headers,
    body: chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined,
  };
}
