import type { ApiResponse } from './api-types.js';
import { wwwAuthenticate } from './bearer-token.js';
import { corsHeaders, type CorsOrigins } from './cors-policy.js';
import type { Exchange } from './exchange.js';
import { HeaderMap } from './header-map.js';
import type { StepAnswer } from './pipeline-step.js';
import { utf8Length } from './utf8-length.js';

/**
 * What every answer gets, whichever step gave it: the 401 challenge, `Vary` on API answers,
 * CORS (a preflight made its own), the request id, Content-Length of the bytes, and no body
 * for HEAD, 204 and 304.
 *
 * @example
 * finishResponse(x, { status: 200, headers: {}, body: '{}' }, '*').headers.get('content-length'); // '2'
 */
export function finishResponse(
  x: Exchange,
  answer: StepAnswer,
  corsOrigins: CorsOrigins,
): ApiResponse {
  const { status, body } = answer;
  const headers = new HeaderMap();
  for (const [k, v] of Object.entries(answer.headers)) headers.set(k, v);
  if (status === 401 && !headers.has('WWW-Authenticate'))
    headers.set('WWW-Authenticate', wwwAuthenticate(x.tokenPresented));
  if (x.relative !== undefined && !headers.has('Vary') && status !== 204)
    headers.set('Vary', 'Authorization, Accept');
  if (x.method !== 'OPTIONS') {
    for (const [k, v] of Object.entries(
      corsHeaders(corsOrigins, x.request.headers.get('origin')),
    )) {
      if (k === 'Vary') headers.append('Vary', v);
      else headers.set(k, v);
    }
  }
  headers.set('X-Request-Id', x.requestId);
  if (body !== null && status !== 204 && status !== 304)
    headers.set('Content-Length', String(utf8Length(body)));
  // HEAD: the headers GET would send, no body.
  return {
    status,
    headers,
    body: x.method === 'HEAD' || status === 204 || status === 304 ? null : body,
    ...(x.operationId ? { operationId: x.operationId } : {}),
  };
}
