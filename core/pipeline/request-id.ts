import { randomUUID } from '../web-crypto.js';

/** A client's X-Request-Id is echoed only when it is a sane token (no header injection, no bloat). */
const SANE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The request id of a request: the client's `X-Request-Id` when it is a sane token, else a
 * fresh UUID. Every face (pipeline, Express adapter, low-level error answers) uses this rule.
 *
 * @example
 * requestIdOf('abc-123');   // 'abc-123'
 * requestIdOf('a b\r\nx');  // a fresh UUID
 */
export function requestIdOf(sent: string | null | undefined): string {
  return sent && SANE_REQUEST_ID.test(sent) ? sent : randomUUID();
}
