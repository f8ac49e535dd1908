import express, { type Express, type NextFunction, type Request, type Response } from 'express';
import { ApiProblem } from '../../core/domain/api-problem.js';
import type { Api } from '../../core/pipeline/create-api.js';
import { API_BASE, apiRelativePath } from '../../core/pipeline/api-paths.js';
import { renderProblem } from '../../core/pipeline/problem-response.js';
import { requestIdOf } from '../../core/pipeline/request-id.js';
import { docsPage } from '../../node-runtime/docs-page.js';
import { isDocsPath } from '../../node-runtime/is-docs-path.js';
import {
  API_SECURITY_HEADERS,
  DOCUMENT_SECURITY_HEADERS,
} from '../../node-runtime/security-headers.js';
import { rateLimits, type RateLimitOptions } from './rate-limits.js';
import { toApiRequest } from './to-api-request.js';

/** One structured log line (JSON). Never carries bodies, tokens or secrets. */
export type LogLine = Record<string, string | number | boolean | undefined>;

export interface AppOptions {
  api: Api;
  rateLimits: RateLimitOptions;
  /** Where request and error log lines go; omit for silence. */
  log?: (line: LogLine) => void;
  /** True while the server drains on shutdown: new requests get 503. */
  isDraining: () => boolean;
  /**
   * Why the server is not ready for new work (`GET /readyz` answers 503 with it), or undefined
   * when it is. Once stopping has begun (`isStopping`), every answer also closes its connection,
   * so a balancer holds no idle connection to this instance when it stops listening.
   */
  readiness?: () => Promise<string | undefined>;
  /** True from the stop request on (SIGTERM), through the drain delay and the drain. */
  isStopping?: () => boolean;
  /**
   * Which proxies' X-Forwarded-For to believe for the client's address (rate limits, logs):
   * Express's `trust proxy` syntax (`loopback`, `10.0.0.0/8,127.0.0.1`, a hop count). Default
   * none: behind a balancer every client then has the balancer's address.
   */
  trustProxy?: string;
}

/**
 * The Express face of the reference server: what only an HTTP server needs (security headers,
 * rate limits, draining, request logs, the /docs page) around the transport-neutral pipeline,
 * which answers everything else.
 */
export function createApp(options: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false); // the pipeline computes ETags of the exact representation
  app.set('trust proxy', trustProxySetting(options.trustProxy));

  app.use((req: Request, res: Response, next: NextFunction) => {
    const sent = req.headers['x-request-id'];
    const id = requestIdOf(typeof sent === 'string' ? sent : undefined);
    req.headers['x-request-id'] = id; // the pipeline echoes it, so every face agrees on one id
    res.setHeader('X-Request-Id', id);
    const log = options.log;
    if (log) {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        log({
          time: new Date().toISOString(),
          level: 'info',
          msg: 'request',
          requestId: id,
          method: req.method,
          path: req.path,
          status: res.statusCode,
          durationMs: Number((process.hrtime.bigint() - started) / 1000n) / 1000,
        });
      });
    }
    // helmet's headers do not depend on the request: recorded once (security-headers.ts) and
    // set here, with the request id and the draining check (one layer, not three).
    const security = req.path.startsWith('/docs')
      ? DOCUMENT_SECURITY_HEADERS
      : API_SECURITY_HEADERS;
    for (const [name, value] of security) res.setHeader(name, value);
    if (options.isStopping?.()) res.setHeader('Connection', 'close');
    if (req.path === '/readyz' && (req.method === 'GET' || req.method === 'HEAD')) {
      answerReadiness(req, res, options).catch(next);
      return;
    }
    if (!options.isDraining()) return next();
    res.setHeader('Connection', 'close');
    sendProblem(
      req,
      res,
      new ApiProblem('service-unavailable', 'The server is shutting down', {
        headers: { 'Retry-After': '5' },
      }),
    );
  });
  for (const handler of rateLimits(options.rateLimits)) app.use(handler);
  const docs = docsPage();
  // Only / and /docs paths walk the docs router (case-sensitive, like its routes).
  app.use((req: Request, res: Response, next: NextFunction) =>
    isDocsPath(req.path) ? docs(req, res, next) : next(),
  );
  app.use(async (req: Request, res: Response) => {
    const answer = await options.api.handle(await toApiRequest(req));
    res.status(answer.status);
    answer.headers.forEach((value, name) => res.setHeader(name, value));
    res.end(answer.body ?? undefined);
  });
  // Express only reaches this on a fault of the adapter itself (a broken socket, a bad header).
  app.use((error: unknown, req: Request, res: Response, _next: NextFunction) => {
    options.log?.({
      time: new Date().toISOString(),
      level: 'error',
      msg: 'adapter failure',
      error: error instanceof Error ? error.name : 'unknown',
    });
    if (res.headersSent) return res.destroy();
    sendProblem(req, res, new ApiProblem('internal-error', 'An unexpected error occurred'));
  });
  return app;
}

/** `GET /readyz`: 200 while ready, else 503 `service-unavailable` naming why (decision 0111). */
async function answerReadiness(req: Request, res: Response, options: AppOptions): Promise<void> {
  const notReady = options.isDraining()
    ? 'The server is shutting down'
    : await (options.readiness?.() ?? Promise.resolve(undefined));
  res.setHeader('Cache-Control', 'no-store');
  if (notReady === undefined) {
    res
      .status(200)
      .type('application/json')
      .send(JSON.stringify({ status: 'ready' }));
    return;
  }
  sendProblem(
    req,
    res,
    new ApiProblem('service-unavailable', `Not ready: ${notReady}`, {
      headers: { 'Retry-After': '1' },
    }),
  );
}

function sendProblem(req: Request, res: Response, problem: ApiProblem): void {
  const relative = apiRelativePath(req.path);
  const id = String(res.getHeader('X-Request-Id'));
  const rendered = renderProblem(
    problem,
    relative === undefined ? req.path : API_BASE + relative,
    id,
  );
  // end, not send: the media type stays exactly application/problem+json, as the pipeline's.
  res.status(rendered.status).set(rendered.headers).end(rendered.body);
}

/** `--trust-proxy` as Express takes it: a hop count as a number, anything else as written. */
function trustProxySetting(value: string | undefined): boolean | number | string {
  if (value === undefined || value === '' || value === 'false') return false;
  return /^\d+$/.test(value) ? Number(value) : value;
}
