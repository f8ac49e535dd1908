import { VARYING, type RecordedRequest, type RecordedResponse } from './interaction-file.js';

/** Response headers whose values change per request or per run: kept, their values masked. */
export const VARYING_RESPONSE_HEADERS: ReadonlySet<string> = new Set([
  'age',
  'content-length',
  'date',
  'etag',
  'expires',
  'last-modified',
  'ratelimit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'retry-after',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-request-id',
]);

/**
 * Request headers whose values are the moment's (validators the app got from an earlier answer,
 * a fresh idempotency key or request id): kept, their values masked.
 */
export const VARYING_REQUEST_HEADERS: ReadonlySet<string> = new Set([
  'idempotency-key',
  'if-match',
  'if-modified-since',
  'if-none-match',
  'if-unmodified-since',
  'x-request-id',
]);

/** Headers with the values of the names in `varying` replaced by {@link VARYING}. */
function maskHeaders(
  headers: Record<string, string>,
  varying: ReadonlySet<string>,
): Record<string, string> {
  const copy: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    // `If-Match: *` / `If-None-Match: *` are no value of the moment: "any" is kept as sent.
    copy[name] = varying.has(name) && value !== '*' ? VARYING : value;
  return copy;
}

/** A JSON value with every string that `varies` says so replaced by {@link VARYING}. */
export function maskVaryingStrings(value: unknown, varies: (text: string) => boolean): unknown {
  if (typeof value === 'string') return varies(value) ? VARYING : value;
  if (Array.isArray(value)) return value.map((item) => maskVaryingStrings(item, varies));
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) copy[name] = maskVaryingStrings(field, varies);
  return copy;
}

/**
 * A recorded request whose values of the moment are masked, so that running the same tests
 * twice records the same bytes: the values of {@link VARYING_REQUEST_HEADERS}. Its body is the
 * app's own and is kept as sent (a replay sends it again).
 */
export function maskVaryingRequest(request: RecordedRequest): RecordedRequest {
  return { ...request, headers: maskHeaders(request.headers, VARYING_REQUEST_HEADERS) };
}

/**
 * A recorded answer whose values of the moment are masked: the values of
 * {@link VARYING_RESPONSE_HEADERS}, and the body's strings that `varies` names (the request's
 * own id in a problem, a timestamp the mock's clock made during the run).
 */
export function maskVaryingResponse(
  response: RecordedResponse,
  varies: (text: string) => boolean,
): RecordedResponse {
  const { body, ...rest } = response;
  return {
    ...rest,
    headers: maskHeaders(response.headers, VARYING_RESPONSE_HEADERS),
    ...(body === undefined ? {} : { body: maskVaryingStrings(body, varies) }),
  };
}
