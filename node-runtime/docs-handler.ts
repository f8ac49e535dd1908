import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Request, type Response } from 'express';
import { renderProblem } from '../core/pipeline/problem-response.js';
import { requestIdOf } from '../core/pipeline/request-id.js';
import { ApiProblem } from '../core/domain/api-problem.js';
import { docsPage } from './docs-page.js';
import { API_SECURITY_HEADERS, DOCUMENT_SECURITY_HEADERS } from './security-headers.js';

/** A plain Node request handler. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The /docs page and `GET /` (`docsPage`) with their security headers and request id, as one
 * Node handler, for the servers that are not the reference server's Express app: the mocks
 * (`apikit mock`, both engines). Anything it does not serve under those paths is the
 * contract's 404 problem. Route only `isDocsPath` paths to it.
 *
 * @example
 * const docs = docsHandler();
 * createServer((req, res) => (isDocsPath(pathOf(req.url)) ? docs(req, res) : api(req, res)));
 */
export function docsHandler(): NodeHandler {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.use((req: Request, res: Response, next) => {
    const sent = req.headers['x-request-id'];
    res.setHeader('X-Request-Id', requestIdOf(typeof sent === 'string' ? sent : undefined));
    const headers = req.path.startsWith('/docs') ? DOCUMENT_SECURITY_HEADERS : API_SECURITY_HEADERS;
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  });
  app.use(docsPage());
  app.use((req: Request, res: Response) => {
    const rendered = renderProblem(
      new ApiProblem('not-found', `No resource at ${req.path}`),
      req.path,
      String(res.getHeader('X-Request-Id')),
    );
    res.status(rendered.status).set(rendered.headers).send(rendered.body);
  });
  return app as unknown as NodeHandler;
}
