import type { Exchange } from '../http/target-client.js';

/** How much of a problem's detail a setup message quotes. */
const DETAIL_LIMIT = 120;

/**
 * An answer in a few words for a setup message: the status and, from a problem body (RFC
 * 9457), its detail or title.
 *
 * @example
 * answerSummary(exchange); // '401 Invalid credentials'
 */
export function answerSummary(exchange: Exchange): string {
  const said = answerDetail(exchange);
  return said ? `${exchange.response.status} ${said}` : String(exchange.response.status);
}

/** The detail (or title) of a problem answer, on one line and cut; undefined for any other body. */
export function answerDetail(exchange: Exchange): string | undefined {
  const body = exchange.response.body;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object') return undefined;
  const { detail, title } = parsed as { detail?: unknown; title?: unknown };
  const text = typeof detail === 'string' && detail ? detail : title;
  if (typeof text !== 'string' || !text) return undefined;
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > DETAIL_LIMIT ? `${line.slice(0, DETAIL_LIMIT)}…` : line;
}
