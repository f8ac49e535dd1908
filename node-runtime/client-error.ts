import type { Duplex } from 'node:stream';
import { ApiProblem } from '../core/domain/api-problem.js';
import { API_BASE, apiRelativePath } from '../core/pipeline/api-paths.js';
import { renderProblem } from '../core/pipeline/problem-response.js';
import { requestIdOf } from '../core/pipeline/request-id.js';
import { API_SECURITY_HEADERS } from './security-headers.js';

const REASONS: Record<number, string> = { 400: 'Bad Request', 501: 'Not Implemented' };

/** Express never runs for these answers: they carry the API answers' security headers here. */
const SECURITY_HEADERS = Object.fromEntries(API_SECURITY_HEADERS);

/**
 * Answers requests that Node's HTTP parser refuses before Express sees them (a method it does
 * not know, such as `BREW`, or malformed HTTP) with problem+json like every other error,
 * instead of Node's bare 400: 501 for an unknown method (contract), 400 otherwise.
 * The request line and headers are read from what arrived, for `instance` and X-Request-Id.
 */
export function answerClientError(
  error: Error & { code?: string; rawPacket?: Buffer },
  socket: Duplex,
): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const head = error.rawPacket?.toString('latin1') ?? '';
  const [requestLine = '', ...headerLines] = head.split('\r\n');
  const target = requestLine.split(' ')[1] ?? '/';
  const path = target.startsWith('/') ? (target.split('?')[0] ?? '/') : '/';
  const sentId = headerLines
    .find((line) => /^x-request-id:/i.test(line))
    ?.slice('x-request-id:'.length)
    .trim();
  const requestId = requestIdOf(sentId);
  const problem =
    error.code === 'HPE_INVALID_METHOD'
      ? new ApiProblem(
          'not-implemented',
          `The method ${requestLine.split(' ')[0] ?? ''} is not implemented by this server`,
        )
      : new ApiProblem('validation-failed', 'The request is not valid HTTP/1.1', {
          errors: [{ pointer: '#', detail: error.code ?? 'malformed request' }],
        });
  const relative = apiRelativePath(path);
  const rendered = renderProblem(
    problem,
    relative === undefined ? path : API_BASE + relative,
    requestId,
  );
  const headers = {
    ...SECURITY_HEADERS,
    ...rendered.headers,
    'Content-Length': String(Buffer.byteLength(rendered.body)),
    'X-Request-Id': requestId,
    Connection: 'close',
  };
  socket.end(
    `HTTP/1.1 ${rendered.status} ${REASONS[rendered.status] ?? 'Error'}\r\n` +
      Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('') +
      `\r\n${rendered.body}`,
  );
}
