import { parse as parseYaml } from 'yaml';
import type { Exchange } from './run-scenarios.js';

/** An answer reduced to what must be equal between the mocks and the reference server. */
export interface NormalizedAnswer {
  /** The HTTP status, or `no answer` when the request failed. */
  status: number | 'no answer';
  /** Compared headers by lower-case name; absent headers are left out. */
  headers: Record<string, string>;
  body: unknown;
}

/** Headers of the contract compared by value (Location and Link modulo the origin). */
const EXACT_HEADERS = [
  'content-type',
  'location',
  'allow',
  'link',
  'cache-control',
  'vary',
  'www-authenticate',
  'accept-patch',
  'access-control-allow-origin',
  'access-control-allow-methods',
  'access-control-allow-headers',
  'access-control-expose-headers',
  'access-control-max-age',
];
/**
 * Headers compared by presence only: Retry-After (seconds to wait), Last-Modified (derives
 * from updatedAt or the time of the last reset, which differ between the two runs) and the
 * RateLimit headers (the server runs with rate limits off here; the mocks never limit, so both
 * must be absent).
 */
const PRESENCE_HEADERS = ['retry-after', 'last-modified', 'ratelimit', 'ratelimit-policy'];

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/**
 * Normalizes one answer. Only what legitimately differs between two runs of the same
 * scenario is replaced, by a placeholder that still checks its shape:
 * - timestamps written during the run (createdAt/updatedAt of what the scenario created or
 *   changed, the reset time) become `<now>`; the demo data's fixed timestamps stay exact;
 * - access tokens become their header and claims without `iat`/`exp` (plus `ttl` = exp - iat),
 *   refresh tokens `<refresh-token>` (random, 256 bits or more);
 * - generated request ids (X-Request-Id, problem `requestId`) become `<generated uuid>`; an id
 *   the client sent must come back exactly;
 * - ETag values (hashes of representations that hold those timestamps) become `strong`/`weak`,
 *   also where a 412's `detail` names the current tag;
 * Ids are compared exactly: both sides start from the same data set and counters and run the
 * same requests in the same order.
 */
export function normalizeAnswer(exchange: Exchange, runStart: number): NormalizedAnswer {
  if (exchange.status === 0)
    return { status: 'no answer', headers: {}, body: `request failed: ${exchange.error}` };
  const sentId = Object.entries(exchange.sentHeaders).find(
    ([name]) => name.toLowerCase() === 'x-request-id',
  )?.[1];
  const requestId = (value: string) =>
    value === sentId ? value : UUID.test(value) ? '<generated uuid>' : value;
  const h = exchange.headers;
  const headers: Record<string, string> = {};
  for (const name of EXACT_HEADERS) {
    const value = h.get(name);
    if (value === null) continue;
    headers[name] = name === 'location' || name === 'link' ? withoutOrigins(value) : value;
  }
  for (const name of PRESENCE_HEADERS) {
    const value = h.get(name);
    if (value === null) continue;
    headers[name] =
      name === 'last-modified' && Number.isNaN(Date.parse(value)) ? `invalid: ${value}` : 'present';
  }
  const etag = h.get('etag');
  if (etag !== null)
    headers.etag = /^W\/"[^"]*"$/.test(etag)
      ? 'weak'
      : /^"[^"]*"$/.test(etag)
        ? 'strong'
        : `malformed: ${etag}`;
  const id = h.get('x-request-id');
  headers['x-request-id'] = id === null ? '(absent)' : requestId(id);

  return { status: exchange.status, headers, body: normalizeBody(exchange, runStart, requestId) };
}

function normalizeBody(
  exchange: Exchange,
  runStart: number,
  requestId: (value: string) => string,
): unknown {
  if (exchange.text === null) return null;
  const type = exchange.headers.get('content-type') ?? '';
  let parsed: unknown;
  try {
    if (/[/+]json\b/.test(type)) parsed = JSON.parse(exchange.text);
    // The contract as YAML: the same document, compared as data (formatting may differ).
    else if (/yaml/.test(type)) parsed = parseYaml(exchange.text);
    else return exchange.text;
  } catch {
    return `unparseable ${type}: ${exchange.text.slice(0, 200)}`;
  }
  return normalizeValue(parsed, undefined, runStart, requestId);
}

function normalizeValue(
  value: unknown,
  key: string | undefined,
  runStart: number,
  requestId: (value: string) => string,
): unknown {
  if (Array.isArray(value))
    return value.map((v) => normalizeValue(v, undefined, runStart, requestId));
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, normalizeValue(v, k, runStart, requestId)]),
    );
  if (typeof value !== 'string') return value;
  if (key === 'accessToken') return describeJwt(value);
  if (key === 'refreshToken')
    return value.length >= 43 ? '<refresh-token>' : `short refresh token: ${value}`;
  if (key === 'requestId') return requestId(value);
  // A 412 names the current tag, a hash of a representation holding run-time timestamps.
  if (key === 'detail') return value.replace(/\bETag (W\/)?"[^"]*"/g, 'ETag <etag>');
  // Written during this run (the demo data's own timestamps are months older): not comparable.
  if (DATE_TIME.test(value) && Date.parse(value) >= runStart - 60_000) return '<now>';
  return value;
}

/** A JWT as its header and claims, without the instant it was issued. */
function describeJwt(token: string): unknown {
  const parts = token.split('.');
  if (parts.length !== 3) return `not a JWT: ${token}`;
  try {
    const decode = (part: string) =>
      JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
    const header = decode(parts[0] as string);
    const { iat, exp, jti, ...claims } = decode(parts[1] as string);
    return {
      jwtHeader: header,
      claims: {
        ...claims,
        ttl: typeof exp === 'number' && typeof iat === 'number' ? exp - iat : 'missing iat/exp',
        ...(jti === undefined ? {} : { jti: '<present>' }),
      },
    };
  } catch {
    return `undecodable JWT: ${token}`;
  }
}

/** `http://127.0.0.1:4321/api/v1/users?page=2` -> `/api/v1/users?page=2` (also inside `<...>`). */
function withoutOrigins(value: string): string {
  return value.replace(/https?:\/\/[^/\s<>,;]+(?=\/)/g, '');
}
