import type { IncomingMessage, ServerResponse } from 'node:http';
import { API_BASE } from '../core/pipeline/api-paths.js';
import { forward } from './forward.js';
import { parseViolations } from './parse-violations.js';
import { prismProblemViolations } from './prism-problem.js';
import type { ProxyExchange } from './proxy-tally.js';
import { readBody, refuseTooLarge, unparsableJson } from './read-body.js';

/** What the front needs: where to send what, and where findings go. */
export interface ProxyRoutes {
  /** The backend as the user gave it (paths outside the API go there unchanged). */
  target: URL;
  /** The target's API base, Prism's upstream. */
  upstream: string;
  prismUrl: URL;
  /** The query as Prism should see it: both forms of a comma-separated array (decision 0102). */
  foldQuery?: (query: string) => string;
  /** Called once per request, before its body is read. */
  onRequest: () => void;
  judge: (exchange: ProxyExchange) => void;
}

/**
 * The front's request listener: API calls through Prism (the API base stripped, since Prism
 * matches the spec's paths without it), everything else straight to the target.
 */
export function createProxyHandler(routes: ProxyRoutes) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    routes.onRequest();
    void readBody(req).then(
      (body) => route(routes, req, body, res),
      () => refuseTooLarge(res),
    );
  };
}

function route(routes: ProxyRoutes, req: IncomingMessage, body: Buffer, res: ServerResponse) {
  const { target, upstream, prismUrl, judge, foldQuery = (q: string) => q } = routes;
  const method = req.method ?? 'GET';
  const raw = req.url ?? '/';
  const [pathname = '/', query] = splitOnce(raw, '?');
  const api = pathname === API_BASE || pathname.startsWith(API_BASE + '/');
  // Outside the API there is nothing of the contract to hold an answer to; and Prism has
  // no HEAD (it answers 405 for any path whose spec says GET) and no method OpenAPI cannot
  // describe (PROPFIND: it answers 501 itself and reports its own answer), so those go
  // straight to the target too, keeping the target's own answer visible.
  if (!api || !PRISM_METHODS.has(method)) return forward(req, body, res, target, raw);
  const unparsable = unparsableJson(req.headers['content-type'], body);
  if (unparsable) {
    // Prism's server parses JSON bodies before anything else and answers a malformed
    // one itself (400 {"error":{"code":"invalid_json"}}) without forwarding it, which
    // would hide the target's own answer: such requests skip Prism, judged here by
    // the target's answer (a 400 is the contract's; a 2xx accepted broken JSON).
    return forward(req, body, res, new URL(upstream), raw.slice(API_BASE.length) || '/', {
      basePath: new URL(upstream).pathname.replace(/\/+$/, ''),
      onHeaders: (_headers, status) =>
        judge({
          method,
          path: pathname,
          status,
          reported: [
            {
              location: 'request.body',
              severity: 'Error',
              message: `${unparsable}; forwarded to the target without Prism, so its answer is not validated`,
            },
          ],
        }),
    });
  }
  const rest = pathname.slice(API_BASE.length) || '/';
  forward(req, body, res, prismUrl, rest + (query === undefined ? '' : `?${foldQuery(query)}`), {
    onHeaders: (headers, status) =>
      judge({
        method,
        path: pathname,
        status,
        reported: parseViolations(headers['sl-violations']),
      }),
    // With --errors, Prism answers a violation itself: a problem whose `validation`
    // lists what is wrong (and no sl-violations header).
    onPrismProblem: (problem, status) =>
      judge({ method, path: pathname, status, reported: prismProblemViolations(problem, status) }),
  });
}

/** The methods an OpenAPI description can hold an operation for, HEAD aside (see above). */
const PRISM_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE']);

function splitOnce(value: string, separator: string): [string, string | undefined] {
  const at = value.indexOf(separator);
  return at === -1 ? [value, undefined] : [value.slice(0, at), value.slice(at + 1)];
}
