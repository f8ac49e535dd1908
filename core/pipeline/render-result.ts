import { ApiProblem } from '../domain/api-problem.js';
import type { Resource } from '../domain/resource.js';
import { API_BASE } from './api-paths.js';
import {
  httpDate,
  notModifiedSince,
  parseETagList,
  strongETag,
  strongMatch,
  weakETag,
  weakMatch,
} from './entity-tag.js';
import type { OperationResult } from './handlers/operation-handler.js';

export interface RenderedResult {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/** Resources are revalidated on every use and never shared between users (contract). */
const DEFAULT_CACHE_CONTROL = 'private, no-cache';

/**
 * Serializes a handler's result and adds the headers it implies: Content-Type, ETag (of the
 * exact bytes), Last-Modified, Location under the API base, Cache-Control. A conditional GET
 * or HEAD whose validators still match becomes 304 with no body (If-None-Match wins over
 * If-Modified-Since).
 */
export function renderResult(
  result: OperationResult,
  method: string,
  request: Headers,
): RenderedResult {
  if (isThenable(result.body)) {
    // A domain call not awaited would go out as `{}`: a wiring bug, answered as one (500).
    throw new TypeError('a handler answered a promise as its body; await the domain call');
  }
  const body = result.body === undefined ? null : JSON.stringify(result.body);
  const headers: Record<string, string> = {
    'Cache-Control': result.cacheControl ?? DEFAULT_CACHE_CONTROL,
  };
  if (body !== null) headers['Content-Type'] = 'application/json';
  if (result.etag && body !== null)
    headers['ETag'] = result.etag === 'strong' ? strongETag(body) : weakETag(body);
  if (result.lastModified) headers['Last-Modified'] = httpDate(result.lastModified);
  if (result.location) headers['Location'] = API_BASE + result.location;
  Object.assign(headers, result.headers);

  const etag = headers['ETag'];
  if ((method === 'GET' || method === 'HEAD') && result.status === 200 && etag) {
    const ifNoneMatch = request.get('if-none-match');
    const ifModifiedSince = request.get('if-modified-since');
    const unchanged =
      ifNoneMatch !== null
        ? weakMatch(parseETagList(ifNoneMatch), etag)
        : ifModifiedSince !== null &&
          result.lastModified !== undefined &&
          notModifiedSince(result.lastModified, ifModifiedSince);
    if (unchanged) {
      return {
        status: 304,
        headers: { ETag: etag, 'Cache-Control': headers['Cache-Control'] as string },
        body: null,
      };
    }
  }
  return { status: result.status, headers, body };
}

/**
 * If-Match and If-None-Match on an unsafe method, judged against the current representation
 * (the one a GET would return): a mismatching If-Match, or a matching If-None-Match (`*`
 * matches any existing resource), is 412. With no current resource, any If-Match is 412:
 * a PUT must not create where the client expected something to exist.
 */
export function checkPreconditions(request: Headers, current: Resource<unknown> | undefined): void {
  const ifMatch = request.get('if-match');
  const ifNoneMatch = request.get('if-none-match');
  if (current === undefined) {
    if (ifMatch !== null)
      throw new ApiProblem(
        'precondition-failed',
        'If-Match was sent but the resource does not exist',
      );
    return;
  }
  const etag = strongETag(JSON.stringify(current.body));
  if (ifMatch !== null && !strongMatch(parseETagList(ifMatch), etag)) {
    throw new ApiProblem(
      'precondition-failed',
      `If-Match does not match the current ETag ${etag}; read the resource again`,
    );
  }
  if (ifNoneMatch !== null && weakMatch(parseETagList(ifNoneMatch), etag)) {
    throw new ApiProblem('precondition-failed', 'If-None-Match matches the current representation');
  }
}

function isThenable(value: unknown): boolean {
  return typeof (value as { then?: unknown } | null | undefined)?.then === 'function';
}
