import type { AddressInfo } from 'node:net';
import express, { type Request, type Response } from 'express';
import { loadSpec } from '../../../spec/load-spec.js';
import { listOperations } from '../../../spec/operations.js';
import { forward } from './stateful-test-proxy.js';

/** A running partial backend: its API base URL and how to stop it. */
export interface PartialServer {
  /** `${origin}/api/v1` */
  api: string;
  /** Every request it received, `METHOD /path` below the API base, query left off. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A backend built one operation at a time, as a team's own Express server is while it grows:
 * only the `implemented` operations are routed (each forwarded to the full implementation at
 * `upstream`, so that what is there is right), and every other operation of the spec is left
 * unrouted, to meet Express's own 404 page like any path that does not exist. On a path with an
 * implemented operation, the methods the spec declares for it are routed only where
 * implemented; the rest of that path (OPTIONS, HEAD, undeclared methods) is forwarded too.
 *
 * @example
 * const partial = await startPartialServer(server.url, ['login', 'listUsers', 'getUser']);
 * await runConformance({ baseUrl: partial.api, ... });
 */
export async function startPartialServer(
  upstream: string,
  implemented: string[],
): Promise<PartialServer> {
  const operations = listOperations(await loadSpec());
  const unknown = implemented.filter((id) => !operations.some((op) => op.operationId === id));
  if (unknown.length) throw new Error(`not operations of the spec: ${unknown.join(', ')}`);
  const app = express();
  const requests: string[] = [];
  app.use((req, _res, next) => {
    requests.push(`${req.method} ${req.path.replace(/^\/api\/v1/, '')}`);
    next();
  });
  const paths = [
    ...new Set(
      operations.filter((op) => implemented.includes(op.operationId)).map((op) => op.path),
    ),
  ];
  for (const path of paths) {
    const declared = operations.filter((op) => op.path === path && op.method !== 'options');
    const missing = new Set(
      declared.filter((op) => !implemented.includes(op.operationId)).map((op) => op.method),
    );
    const route = `/api/v1${path.replace(/\{([^}]+)\}/g, ':$1')}`;
    app.all(route, (req, res, next) => {
      const method = req.method === 'HEAD' ? 'get' : req.method.toLowerCase();
      if (missing.has(method as (typeof declared)[number]['method'])) return next();
      void relay(upstream, req, res).catch(next);
    });
  }
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    api: `http://127.0.0.1:${port}/api/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Forwards one request as it came and sends the answer back as it came. */
async function relay(upstream: string, req: Request, res: Response): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers))
    if (value !== undefined && !['host', 'connection', 'content-length'].includes(name))
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
  const answer = await forward(upstream, {
    method: req.method,
    path: req.originalUrl,
    headers,
    body: chunks.length ? Buffer.concat(chunks).toString('utf8') : undefined,
  });
  const bodiless = req.method === 'HEAD' || answer.status === 204 || answer.status === 304;
  res.writeHead(answer.status, answer.headers);
  res.end(bodiless ? undefined : answer.body);
}
