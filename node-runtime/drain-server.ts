import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * How long `apikit serve` keeps serving after a SIGTERM, `/readyz` answering 503, before it
 * stops listening (`--drain-delay`, decision 0111): longer than the 4 s for which the guide's
 * nginx keeps an idle connection to an instance, so none is left when the listener closes.
 */
export const DEFAULT_DRAIN_DELAY_SECONDS = 5;

/** How long in-flight requests may take once a server stops listening. */
export const DRAIN_TIMEOUT_MS = 5_000;

/**
 * Stops listening, closes idle keep-alive connections at once and lets in-flight requests
 * finish for at most `drainMs`; then cuts whatever is left. For every server apikit starts
 * (`serve`, both `mock` engines, `proxy`), so a stop is never held up by one slow client.
 */
export async function drainServer(server: Server, drainMs = DRAIN_TIMEOUT_MS): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const timer = setTimeout(() => server.closeAllConnections(), drainMs);
  await closed;
  clearTimeout(timer);
}

/** The origin of a listening server, with an IPv6 address in brackets. */
export function serverOrigin(server: Server, host: string): string {
  const { port } = server.address() as AddressInfo;
  const bare = host.replace(/^\[|\]$/g, '');
  return `http://${bare.includes(':') ? `[${bare}]` : bare}:${port}`;
}
