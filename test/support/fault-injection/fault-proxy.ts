import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the proxy received it; `path` includes the query. Header names lower-case. */
export interface ProxyRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** An answer, from the implementation behind the proxy or made up by a fault. */
export interface ProxyResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** What a fault may use besides the exchange at hand. */
export interface FaultContext {
  /** Sends a request to the implementation behind the proxy, untouched. */
  forward(req: ProxyRequest): Promise<ProxyResponse>;
  /** `Bearer <token>` of the admin account, logged in (once) by the proxy itself. */
  adminAuthorization(): Promise<string>;
}

/** How one broken variant departs from the implementation: before forwarding and/or after. */
export interface FaultHooks {
  /** Changes the request before it is forwarded, or answers it without forwarding. */
  request?(
    req: ProxyRequest,
    ctx: FaultContext,
  ): ProxyRequest | ProxyResponse | Promise<ProxyRequest | ProxyResponse>;
  /** Changes the answer (to the original request) before it is sent back. */
  response?(
    res: ProxyResponse,
    req: ProxyRequest,
    ctx: FaultContext,
  ): ProxyResponse | Promise<ProxyResponse>;
}

export interface FaultProxy {
  /** The proxy's origin, e.g. `http://127.0.0.1:40123`; the API is under `${url}/api/v1`. */
  url: string;
  /** Switches the behaviour: `undefined` forwards everything unchanged. */
  use(hooks: FaultHooks | undefined): void;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
]);

/**
 * A small node:http proxy on 127.0.0.1, port 0, in front of an implementation: it buffers each
 * request, lets the current fault change it (or answer it), forwards it, lets the fault change
 * the answer and sends that back. Without a fault it is transparent. For tests only.
 *
 * @example
 * const proxy = await startFaultProxy(server.url, { username, password });
 * proxy.use({ response: (res) => ({ ...res, status: res.status === 201 ? 200 : res.status }) });
 */
export async function startFaultProxy(
  upstream: string,
  admin: { username: string; password: string },
): Promise<FaultProxy> {
  let hooks: FaultHooks | undefined;
  let adminToken: Promise<string> | undefined;
  const ctx: FaultContext = {
    forward: (req) => forward(upstream, req),
    adminAuthorization() {
      adminToken ??= forward(upstream, {
        method: 'POST',
        path: '/api/v1/auth/login',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(admin),
      }).then((res) => {
        if (res.status !== 200) throw new Error(`proxy: admin login answered ${res.status}`);
        return `Bearer ${(JSON.parse(res.body) as { accessToken: string }).accessToken}`;
      });
      return adminToken;
    },
  };
  // A header block over the implementation's limit (16 KiB) must reach it, to be answered 431
  // there (or by a fault): the proxy's own parser allows four times as much.
  const server = createServer({ maxHeaderSize: 64 * 1024 }, (incoming, outgoing) => {
    void (async () => {
      const original = await read(incoming);
      const current = hooks;
      const changed = current?.request ? await current.request(original, ctx) : original;
      let res = 'status' in changed ? changed : await forward(upstream, changed);
      if (current?.response) res = await current.response(res, original, ctx);
      outgoing.writeHead(res.status, res.headers);
      // Node sends no body on HEAD, 204 and 304 whatever is written.
      outgoing.end(res.body);
    })().catch((error: Error) => {
      if (!outgoing.headersSent) outgoing.writeHead(502, { 'content-type': 'text/plain' });
      outgoing.end(`proxy: ${error.message}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    use(next) {
      hooks = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends a request to `upstream` (an origin) as it is, and reads the whole answer. */
export function forward(upstream: string, req: ProxyRequest): Promise<ProxyResponse> {
  const url = new URL(req.path, upstream);
  const body = Buffer.from(req.body, 'utf8');
  const headers: Record<string, string> = { ...req.headers };
  if (body.length > 0 || !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(req.method))
    headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const out = httpRequest(url, { method: req.method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 502,
          headers: headerRecord(res),
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
    });
    out.on('error', reject);
    out.end(body.length > 0 ? body : undefined);
  });
}

/** The headers without the named ones (case-insensitive). */
export function omit(headers: Record<string, string>, ...names: string[]): Record<string, string> {
  const drop = new Set(names.map((n) => n.toLowerCase()));
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !drop.has(k.toLowerCase())));
}

function headerRecord(message: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(message.headers)) {
    if (value === undefined || HOP_BY_HOP.has(name)) continue;
    headers[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

async function read(incoming: IncomingMessage): Promise<ProxyRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of incoming) chunks.push(chunk as Buffer);
  return {
    method: incoming.method ?? 'GET',
    path: incoming.url ?? '/',
    headers: headerRecord(incoming),
    body: Buffer.concat(chunks).toString('utf8'),
  };
}
