import {
  Agent,
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerClientError } from '../../../node-runtime/client-error.js';

/** A loopback HTTP balancer in front of several servers. */
export interface RoundRobinBalancer {
  /** Its base URL, e.g. `http://127.0.0.1:40123` (paths are passed on as they are). */
  readonly url: string;
  /** The upstream base URLs, in the order they take turns. */
  readonly upstreams: readonly string[];
  /** How many requests each upstream was sent, by index. */
  readonly sent: readonly number[];
  /** Stops listening, closes every connection it holds (both sides). */
  close(): Promise<void>;
}

// Hop-by-hop headers (RFC 9110 7.6.1) belong to one connection: never passed on. Content-Length
// and Transfer-Encoding are kept: Node frames the forwarded message by them.
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authenticate',
  'proxy-authorization',
  'te',
  'trailer',
  'upgrade',
]);

/** rawHeaders ([name, value, name, value, ...]) without the hop-by-hop ones, duplicates kept. */
function endToEnd(raw: string[]): string[] {
  const kept: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (!HOP_BY_HOP.has(raw[i]!.toLowerCase())) kept.push(raw[i]!, raw[i + 1]!);
  }
  return kept;
}

/** The headers with the client's address appended to X-Forwarded-For (one header). */
function forwardedFor(raw: string[], client: string): string[] {
  const kept: string[] = [];
  const chain: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'x-forwarded-for') chain.push(raw[i + 1]!);
    else kept.push(raw[i]!, raw[i + 1]!);
  }
  return [...kept, 'X-Forwarded-For', [...chain, client].join(', ')];
}

/** 502 problem+json: the chosen upstream could not be reached (or broke off before answering). */
function badGateway(res: ServerResponse, upstream: string, error: Error): void {
  if (res.headersSent) {
    res.destroy(error);
    return;
  }
  const body = JSON.stringify({
    type: 'about:blank',
    title: 'Bad Gateway',
    status: 502,
    detail: `upstream ${upstream} did not answer: ${error.message}`,
  });
  res.writeHead(502, {
    'Content-Type': 'application/problem+json',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

function forward(req: IncomingMessage, res: ServerResponse, upstream: string, agent: Agent) {
  const target = new URL(upstream);
  const outgoing = httpRequest({
    agent,
    host: target.hostname,
    port: target.port,
    method: req.method,
    path: req.url,
    // The client's Host is kept: the servers build absolute links from it, which then point
    // at the balancer, as behind a real one. X-Forwarded-For gains the client's address (what
    // a server started with trustProxy reads).
    headers: forwardedFor(endToEnd(req.rawHeaders), req.socket.remoteAddress ?? 'unknown'),
  });
  outgoing.on('response', (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.statusMessage, endToEnd(answer.rawHeaders));
    answer.pipe(res);
    answer.on('error', (error) => res.destroy(error));
  });
  outgoing.on('error', (error) => badGateway(res, upstream, error));
  // A client that goes away takes its upstream request with it.
  res.on('close', () => {
    if (!res.writableFinished) outgoing.destroy();
  });
  req.pipe(outgoing);
}

/**
 * Starts a balancer on 127.0.0.1, port 0, sending each request to the next upstream in turn
 * (round robin): bodies streamed both ways, headers kept but the hop-by-hop ones, a 502
 * problem+json when the upstream cannot be reached. Keep-alive connections on both sides, so
 * one client connection's requests are still spread over every upstream.
 *
 * @example
 * const balancer = await startRoundRobinBalancer([a.url, b.url, c.url]);
 * await fetch(`${balancer.url}/api/v1/roles`); // a, then b, then c, then a...
 */
export async function startRoundRobinBalancer(
  upstreams: readonly string[],
): Promise<RoundRobinBalancer> {
  if (upstreams.length === 0) throw new Error('a balancer needs at least one upstream');
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  const sent = upstreams.map(() => 0);
  let next = 0;
  const server = createServer((req, res) => {
    const index = next;
    next = (next + 1) % upstreams.length;
    sent[index]! += 1;
    forward(req, res, upstreams[index]!, agent);
  });
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  let closing: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    upstreams,
    sent,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      });
      return closing;
    },
  };
}
