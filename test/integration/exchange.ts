import type { ObservedResponse } from '../../spec/response-validator.js';

/** One HTTP request exactly as a test sends it. */
export interface SentRequest {
  method: string;
  /** Absolute URL, query included. */
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** A response as seen on the wire (what ResponseValidator takes), with a JSON reader. */
export interface Observed extends ObservedResponse {
  json<T = unknown>(): T;
}

/**
 * Sends one request with `fetch` and reads the whole body; an empty body becomes `null`, as
 * the validator expects for bodiless answers (204, 304, HEAD).
 *
 * @example
 * const res = await exchange({ method: 'GET', url: `${server.api}/roles`, headers: {} });
 */
export async function exchange(request: SentRequest): Promise<Observed> {
  const res = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    ...(request.body === undefined ? {} : { body: request.body }),
    redirect: 'manual',
  });
  const text = await res.text();
  const body = text === '' ? null : text;
  return {
    status: res.status,
    headers: res.headers,
    body,
    json<T>() {
      if (body === null) throw new Error(`${request.method} ${request.url}: no body to parse`);
      return JSON.parse(body) as T;
    },
  };
}

/** A short description of a response for assertion messages. */
export function describeResponse(res: ObservedResponse): string {
  return `${res.status} ${res.headers.get('content-type') ?? ''} ${(res.body ?? '').slice(0, 400)}`;
}
