import type { Exchange } from '../../http/target-client.js';

const PROBLEM = /^application\/problem\+json\b/i;

/** The JSON object of a problem+json answer, or undefined for any other answer. */
export function problemBody(exchange: Exchange): Record<string, unknown> | undefined {
  if (!PROBLEM.test(exchange.headers.get('content-type') ?? '')) return undefined;
  try {
    const body: unknown = JSON.parse(exchange.response.body);
    return typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}
