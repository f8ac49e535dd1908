import type { RouteMatch } from './route-table.js';

/**
 * The pipeline speaks a transport-neutral request and response, so that the Express server,
 * the MSW handlers (standard Fetch `Request`/`Response`) and tests all drive the same code.
 */

export interface ApiRequest {
  /** Upper-case HTTP method as received. */
  method: string;
  /** The request target's path, as received (percent-encoded, no query). */
  path: string;
  /** The raw query string without the leading `?` ('' when none). */
  query: string;
  headers: Headers;
  /** The raw body bytes; null when the request had none. */
  body: Uint8Array | null;
  /**
   * Set by an adapter that stopped reading a body over the size limit; the pipeline answers
   * 413 at the point of the contract's check order (after 401/403/406), not before.
   */
  bodyTooLarge?: boolean;
  /** The peer address, for per-address policies (login throttling in adapters). */
  clientAddress?: string;
  /**
   * The route of `path` when the adapter has matched it already against the same spec (the
   * mocks do, to find the operation an override, `Prefer` or latency is about): the pipeline
   * takes it instead of matching again. Without it (or when none matched) the pipeline matches.
   */
  route?: RouteMatch;
}

export interface ApiResponse {
  status: number;
  headers: Headers;
  /** Serialized body; null for 204, 304 and HEAD. */
  body: string | null;
  /** The spec operation that answered, once the request was routed to one (for response checks). */
  operationId?: string;
}
