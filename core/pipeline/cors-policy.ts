/** Request headers a browser may send cross-origin (contract: HTTP semantics, CORS). */
const ALLOW_HEADERS =
  'Authorization, Content-Type, If-Match, If-None-Match, If-Modified-Since, Idempotency-Key, X-Request-Id';
/** Response headers a browser script may read. */
const EXPOSE_HEADERS =
  'ETag, Last-Modified, Location, Link, Retry-After, RateLimit, RateLimit-Policy, X-Request-Id';

/** `'*'` allows any origin (the default); a list allows exactly those origins. */
export type CorsOrigins = '*' | string[];

/**
 * CORS headers for a response: none without an Origin or for an origin not allowed (the
 * browser then blocks the read, which is the point); `*` when any origin is allowed, else the
 * origin echoed with `Vary: Origin`. Preflights add the allowed methods and headers.
 */
export function corsHeaders(
  origins: CorsOrigins,
  origin: string | null,
  preflight?: { allow: string },
): Record<string, string> {
  if (!origin) return {};
  const headers: Record<string, string> = {};
  if (origins === '*') headers['Access-Control-Allow-Origin'] = '*';
  else if (origins.includes(origin)) {
    headers['Access-Control-Allow-Origin'] = origin;
    headers['Vary'] = 'Origin';
  } else return {};
  if (preflight) {
    headers['Access-Control-Allow-Methods'] = preflight.allow;
    headers['Access-Control-Allow-Headers'] = ALLOW_HEADERS;
    headers['Access-Control-Max-Age'] = '600';
  } else {
    headers['Access-Control-Expose-Headers'] = EXPOSE_HEADERS;
  }
  return headers;
}
