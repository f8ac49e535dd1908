import { maxHeaderSize } from 'node:http';
import type { Duplex } from 'node:stream';
import { ApiProblem } from '../core/domain/api-problem.js';
import { API_BASE, apiRelativePath } from '../core/pipeline/api-paths.js';
import { renderProblem } from '../core/pipeline/problem-response.js';
import { requestIdOf } from '../core/pipeline/request-id.js';
import { API_SECURITY_HEADERS } from './security-headers.js';

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  431: 'Request Header Fields Too Large',
  501: 'Not Implemented',
};

/** A request line as it starts a request: only then does its target name the path. */
const REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ \S+ HTTP\/\S+$/;

/** Express never runs for these answers: they carry the API answers' security headers here. */
const SECURITY_HEADERS = Object.fromEntries(API_SECURITY_HEADERS);

/**
 * Answers requests that Node's HTTP parser refuses before Express sees them (a method it does
 * not know, such as `BREW`, or malformed HTTP) with problem+json like every other error,
 * instead of Node's bare 400: 501 for an unknown method (contract), 431 for a request line and
 * headers over the parser's limit (`maxHeaderSize`, RFC 6585; decision 0107), 400 otherwise.
 * The request line and headers are read from what arrived, for `instance` and X-Request-Id;
 * an overflow may arrive in several packets, of which Node hands over only the last, so a
 * path not seen is `/`.
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
  const target = REQUEST_LINE.test(requestLine) ? (requestLine.split(' ')[1] ?? '/') : '/';
  const path = target.startsWith('/') ? (target.split('?')[0] ?? '/') : '/';
  const sentId = headerLines
    .find((line) => /^x-request-id:/i.test(line))
    ?.slice('x-request-id:'.length)
    .trim();
  const requestId = requestIdOf(sentId);
  const problem = problemOf(error.code, requestLine);
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

/** The contract's problem for what Node's parser refused. */
function problemOf(code: string | undefined, requestLine: string): ApiProblem {
  if (code === 'HPE_INVALID_METHOD')
    return new ApiProblem(
      'not-implemented',
      `The method ${requestLine.split(' ')[0] ?? ''} is not implemented by this server`,
    );
  if (code === 'HPE_HEADER_OVERFLOW')
    return new ApiProblem(
      'header-fields-too-large',
      `The request line and headers are over the server's limit of ${maxHeaderSize} bytes`,
    );
  return new ApiProblem('validation-failed', 'The request is not valid HTTP/1.1', {
    errors: [{ pointer: '#', detail: code ?? 'malformed request' }],
  });
}
