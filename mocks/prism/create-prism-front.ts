import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_BASE, apiRelativePath } from '../../core/pipeline/api-paths.js';
import { renderProblem } from '../../core/pipeline/problem-response.js';
import { requestIdOf } from '../../core/pipeline/request-id.js';
import { ApiProblem } from '../../core/domain/api-problem.js';
import { isDocsPath } from '../../node-runtime/is-docs-path.js';
import { HOP_BY_HOP } from '../../node-runtime/hop-by-hop.js';
import { lazyDocsHandler } from '../../node-runtime/lazy-docs-handler.js';
import { coherentAnswer } from './coherent-problem.js';
import type { ServedDocument } from './contract-documents.js';
import { forwardToPrism, MAX_BODY_BYTES, readBody } from './forward-to-prism.js';

/** What the front needs to know: its own documents, the API's base path, where Prism is. */
export interface PrismFrontOptions {
  documents: Map<string, ServedDocument>;
  basePath: string;
  prismUrl: URL;
  /**
   * Rewrites the query before Prism sees it: repeated values of a comma-separated array
   * folded into one, as the contract accepts both forms and Prism reads the description
   * literally (decision 0102). Default: the query as sent.
   */
  foldQuery?: (query: string) => string;
}

/**
 * The front's request listener: /docs, the contract's documents and /healthz served here, the
 * API (its base path stripped) forwarded to Prism and its answer made coherent, anything else
 * a 404 problem.
 */
export function createPrismFront({
  documents,
  basePath,
  prismUrl,
  foldQuery = (query) => query,
}: PrismFrontOptions) {
  const relativeOf = relativePathOf(basePath);
  const docs = lazyDocsHandler();
  return (req: IncomingMessage, res: ServerResponse) => {
    const method = req.method ?? 'GET';
    const target = req.url ?? '/';
    const path = target.split('?')[0] || '/';
    const query = target.includes('?')
      ? `?${foldQuery(target.slice(target.indexOf('?') + 1))}`
      : '';
    const sent = req.headers['x-request-id'];
    const requestId = requestIdOf(typeof sent === 'string' ? sent : undefined);
    const problem = (p: ApiProblem, instance = path) => {
      const rendered = renderProblem(p, instance, requestId);
      res.writeHead(rendered.status, {
        ...rendered.headers,
        'X-Request-Id': requestId,
        'Access-Control-Allow-Origin': '*',
      });
      res.end(method === 'HEAD' ? undefined : rendered.body);
    };
    if (isDocsPath(path)) return docs(req, res);
    const open = documents.get(path);
    if (open) {
      if (method !== 'GET' && method !== 'HEAD')
        return problem(
          new ApiProblem('method-not-allowed', `${method} is not allowed on ${path}`, {
            headers: { Allow: 'GET, HEAD' },
          }),
        );
      res.writeHead(200, {
        'Content-Type': open.type,
        'Content-Length': Buffer.byteLength(open.body),
        'Cache-Control': 'no-cache',
        'X-Request-Id': requestId,
        'Access-Control-Allow-Origin': '*',
      });
      return res.end(method === 'HEAD' ? undefined : open.body);
    }
    const relative = relativeOf(path);
    if (relative === undefined)
      return problem(new ApiProblem('not-found', `No resource at ${path}`));
    // The problem's instance names the canonical path, as the reference server's do.
    const instance = basePath + relative;
    void readBody(req).then(
      (body) =>
        forwardToPrism(req, body, prismUrl, relative + query, (answer) => {
          const coherent = coherentAnswer(answer, { path: instance, requestId });
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(answer.headers))
            if (!HOP_BY_HOP.has(name) && name !== 'content-length') headers[name] = value;
          for (const [name, value] of Object.entries(coherent.headers))
            headers[name.toLowerCase()] = value;
          headers['content-length'] = String(coherent.body.length);
          res.writeHead(coherent.status, headers);
          res.end(method === 'HEAD' ? undefined : coherent.body);
        }).catch((error: Error) =>
          problem(
            new ApiProblem(
              'service-unavailable',
              `the Prism mock did not answer: ${error.message}`,
            ),
            instance,
          ),
        ),
      () =>
        problem(
          new ApiProblem('payload-too-large', `bodies over ${MAX_BODY_BYTES} bytes are refused`),
          instance,
        ),
    );
  };
}

/**
 * The bundled contract's base (`/api/v1`, with the `/api` alias), else the base path of the
 * description's first server, as a client of that API would address it.
 */
function relativePathOf(basePath: string): (path: string) => string | undefined {
  return (path) => {
    if (basePath === API_BASE) return apiRelativePath(path);
    if (basePath === '') return path;
    return path === basePath || path.startsWith(basePath + '/')
      ? path.slice(basePath.length) || '/'
      : undefined;
  };
}
