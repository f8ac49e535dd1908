import {
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import { HOP_BY_HOP } from '../node-runtime/hop-by-hop.js';
import { prismProblem, type PrismProblem } from './prism-problem.js';

export interface ForwardOptions {
  /** The answer's headers and status, before its body is passed on. */
  onHeaders?: (headers: IncomingHttpHeaders, status: number) => void;
  /** Instead of onHeaders when the answer is one of Prism's own problems (`--errors`). */
  onPrismProblem?: (problem: PrismProblem, status: number) => void;
  basePath?: string;
}

/**
 * Sends a buffered request on to `to` + `path` and streams the answer back to `res`; a target
 * that cannot be reached is answered with a 502 problem.
 */
export function forward(
  req: IncomingMessage,
  body: Buffer,
  res: ServerResponse,
  to: URL,
  path: string,
  options: ForwardOptions = {},
): void {
  const headers: IncomingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (!HOP_BY_HOP.has(name) && name !== 'host' && name !== 'content-length')
      headers[name] = value;
  }
  headers.host = to.host;
  if (body.length > 0 || req.headers['content-length'] !== undefined)
    headers['content-length'] = String(body.length);
  const send = to.protocol === 'https:' ? httpsRequest : httpRequest;
  const outgoing = send(
    {
      protocol: to.protocol,
      hostname: to.hostname.replace(/^\[|\]$/g, ''),
      port: to.port || (to.protocol === 'https:' ? 443 : 80),
      method: req.method,
      path: (options.basePath ?? '') + (path.startsWith('/') ? path : `/${path}`),
      headers,
    },
    (answer) => passAnswerOn(answer, res, options),
  );
  outgoing.once('error', (error) => {
    if (res.headersSent) return void res.destroy();
    const problem = JSON.stringify({
      type: 'about:blank',
      title: 'Bad Gateway',
      status: 502,
      detail: `the proxy could not reach ${to.origin}: ${error.message}`,
    });
    res.writeHead(502, {
      'Content-Type': 'application/problem+json',
      'Content-Length': Buffer.byteLength(problem),
    });
    res.end(problem);
  });
  outgoing.end(body);
}

function passAnswerOn(answer: IncomingMessage, res: ServerResponse, options: ForwardOptions) {
  res.statusCode = answer.statusCode ?? 502;
  if (answer.statusMessage) res.statusMessage = answer.statusMessage;
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) res.setHeader(name, value);
  }
  answer.once('error', () => res.destroy());
  const status = res.statusCode;
  if (
    options.onPrismProblem &&
    /^application\/problem\+json/i.test(answer.headers['content-type'] ?? '')
  ) {
    // Small JSON: read whole, judged, then passed on as it came.
    const chunks: Buffer[] = [];
    answer.on('data', (chunk: Buffer) => chunks.push(chunk));
    answer.once('end', () => {
      const text = Buffer.concat(chunks);
      const problem = prismProblem(text);
      if (problem) options.onPrismProblem!(problem, status);
      else options.onHeaders?.(answer.headers, status);
      res.end(text);
    });
    return;
  }
  options.onHeaders?.(answer.headers, status);
  answer.pipe(res);
}
