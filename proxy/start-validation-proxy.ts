import {
  createServer,
  request as httpRequest,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { request as httpsRequest } from 'node:https';
import { API_BASE } from '../core/pipeline/api-paths.js';
import { loadSpec } from '../spec/load-spec.js';
import { specPath as bundledSpecPath } from '../spec/spec-path.js';
import { startPrism, type PrismServer } from '../mocks/prism/start-prism.js';
import {
  createProxyTally,
  judgeExchange,
  operationMatcher,
  type ProxyExchange,
  type ProxySummary,
  type ProxyViolation,
} from './proxy-tally.js';
import { HOP_BY_HOP } from '../node-runtime/hop-by-hop.js';
import { drainServer, serverOrigin } from '../node-runtime/drain-server.js';

export type { ProxySummary, ProxyViolation } from './proxy-tally.js';

export interface ValidationProxyOptions {
  /**
   * The live backend: its origin (`http://127.0.0.1:3000`, the API assumed under `/api/v1`)
   * or its API base URL (`http://127.0.0.1:3000/api/v1`, any path is taken as the API base).
   */
  target: string;
  /** The description to validate against (default: the bundled contract). */
  specPath?: string;
  /** Port of the proxy; 0 picks a free one (default 4010). */
  port?: number;
  /** Address to bind (default 127.0.0.1). */
  host?: string;
  /** Told about every violation (default: a line on stdout); see `judgeExchange`. */
  onViolation?: (violation: ProxyViolation) => void;
  /**
   * Prism's `--errors`: a request that breaks the contract is answered by Prism with a
   * problem (422, or 401 for missing credentials) instead of being forwarded; a response that
   * breaks it, with a 500 problem listing the violations.
   */
  errors?: boolean;
  /** How long to wait for Prism to start (default 30 s). */
  startTimeoutMs?: number;
}

export interface RunningValidationProxy {
  /** The proxy's origin; the API is at `${url}/api/v1`, as on the target. */
  url: string;
  /** Where validated API calls go: the target's API base. */
  upstream: string;
  /** The Prism behind the front (for diagnostics: `prism.output()`). */
  prism: PrismServer;
  /** Requests, violations and rejected requests so far, in total and per operation. */
  summary(): ProxySummary;
  /** The findings so far (the first 10,000 of each kind). */
  findings(): { violations: ProxyViolation[]; rejected: ProxyViolation[] };
  close(): Promise<void>;
}

/**
 * Prism's validation proxy in front of a live backend, behind a thin front that keeps the
 * backend's URL layout and attributes every violation to its request.
 *
 * How paths map (measured with Prism 5.14): Prism matches a request's path against the
 * spec's `paths` as they are, ignoring the `servers` base path (`/api/v1`), and forwards it
 * appended to its upstream URL, keeping the upstream's own path. So Prism runs with upstream
 * `<target origin>/api/v1` and is asked for `/users/1`; the front strips `/api/v1` from what
 * clients send. Clients therefore use the proxy exactly like the target (base
 * `<proxy>/api/v1`, `Location` headers resolve), and paths outside the API base (`/healthz`,
 * `/openapi.json`, `/docs`) go straight to the target, unvalidated (the contract has no
 * operation for them).
 *
 * Violations come from Prism's `sl-violations` response header (JSON, one entry per problem)
 * rather than from its log, whose lines do not say which of several concurrent requests they
 * belong to. The header is passed on to the client as well.
 *
 * @example
 * const proxy = await startValidationProxy({ target: 'http://127.0.0.1:3000', port: 0 });
 * await fetch(`${proxy.url}/api/v1/users/1`, { headers }); // violations -> onViolation
 * await proxy.close();
 */
export async function startValidationProxy(
  options: ValidationProxyOptions,
): Promise<RunningValidationProxy> {
  const target = new URL(options.target);
  if (target.protocol !== 'http:' && target.protocol !== 'https:')
    throw new Error(`not an http(s) URL: ${options.target}`);
  const basePath = target.pathname.replace(/\/+$/, '');
  const upstream = target.origin + (basePath === '' ? API_BASE : basePath);
  const onViolation = options.onViolation ?? ((v) => console.log(formatViolation(v)));

  const specPath = options.specPath ?? bundledSpecPath;
  // The description is read for the summary's operations while Prism starts.
  const matcher = loadSpec(specPath).then(operationMatcher);
  matcher.catch(() => {}); // awaited below, after Prism (whose own error says more)
  const prism = await startPrism({
    specPath,
    mode: 'proxy',
    upstream,
    // Prism's CORS would answer preflights itself and overwrite the target's CORS headers
    // on every answer; a validation proxy must pass the target's own through.
    extraArgs: ['--cors=false', ...(options.errors ? ['--errors'] : [])],
    ...(options.startTimeoutMs ? { startTimeoutMs: options.startTimeoutMs } : {}),
  });
  let operationOf: Awaited<typeof matcher>;
  try {
    operationOf = await matcher;
  } catch (error) {
    await prism.close();
    throw error;
  }
  const prismUrl = new URL(prism.url);
  const tally = createProxyTally();
  /** Sorts one exchange's findings, counts them, reports the violations. */
  const judge = (exchange: ProxyExchange) => {
    const rest = exchange.path.slice(API_BASE.length) || '/';
    const operation = operationOf(exchange.method, rest);
    const verdict = judgeExchange(exchange, operation);
    tally.record(operation ?? `${exchange.method} ${exchange.path}`, verdict);
    for (const v of verdict.violations) onViolation(v);
  };

  const server = createServer((req, res) => {
    const method = req.method ?? 'GET';
    const raw = req.url ?? '/';
    const [pathname = '/', query] = splitOnce(raw, '?');
    tally.request();
    void readBody(req).then(
      (body) => {
        const api = pathname === API_BASE || pathname.startsWith(API_BASE + '/');
        // Outside the API there is nothing of the contract to hold an answer to; and Prism has
        // no HEAD (it answers 405 for any path whose spec says GET), so HEAD goes straight
        // to the target too, keeping the target's own HEAD behaviour visible.
        if (!api || method === 'HEAD') return forward(req, body, res, target, raw);
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
        forward(req, body, res, prismUrl, rest + (query === undefined ? '' : `?${query}`), {
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
            judge({
              method,
              path: pathname,
              status,
              reported: prismProblemViolations(problem, status),
            }),
        });
      },
      () => {
        // Over Prism's own limit: refused here rather than half-forwarded.
        const problem = JSON.stringify({
          type: 'about:blank',
          title: 'Payload Too Large',
          status: 413,
          detail: `the validation proxy takes bodies up to ${MAX_BUFFERED_BYTES} bytes`,
        });
        res.writeHead(413, {
          'Content-Type': 'application/problem+json',
          'Content-Length': Buffer.byteLength(problem),
          Connection: 'close',
        });
        res.end(problem);
      },
    );
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 4010, options.host ?? '127.0.0.1', () => {
        server.removeListener('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await prism.close();
    throw error;
  }
  const host = options.host ?? '127.0.0.1';
  let closing: Promise<void> | undefined;
  return {
    url: serverOrigin(server, host),
    upstream,
    prism,
    summary: tally.summary,
    findings: tally.findings,
    close() {
      closing ??= (async () => {
        await drainServer(server);
        await prism.close();
      })();
      return closing;
    },
  };
}

/** One line: `GET /api/v1/users/1 -> 200: response.body: must have required property 'email'`. */
export function formatViolation(v: ProxyViolation): string {
  const severity = v.severity === 'Error' ? '' : ` (${v.severity.toLowerCase()})`;
  const status = v.status ? ` -> ${v.status}` : '';
  return `violation${severity}: ${v.method} ${v.path}${status}: ${v.location}: ${v.message}`;
}

/** Prism's `sl-violations` header: a JSON array, or `Too many violations! <cut JSON>`. */
export function parseViolations(
  header: string | string[] | undefined,
): Omit<ProxyViolation, 'method' | 'path' | 'status'>[] {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return [];
  try {
    const list = JSON.parse(value) as {
      location?: string[];
      severity?: string;
      message?: string;
    }[];
    return list.map((v) => ({
      location: (v.location ?? []).join('.') || 'request',
      severity: v.severity ?? 'Error',
      message: v.message ?? 'violation',
    }));
  } catch {
    return [
      {
        location: 'exchange',
        severity: 'Error',
        message: `Prism reported violations it could not list in full: ${value.slice(0, 300)}`,
      },
    ];
  }
}

/** The problem Prism sends for a violation under `--errors`. */
export interface PrismProblem {
  type: string;
  title?: string;
  detail?: string;
  validation?: { location?: string[]; severity?: string; message?: string }[];
}

/** One of Prism's own problems (its type is under stoplight.io/prism/errors), or undefined. */
function prismProblem(body: Buffer): PrismProblem | undefined {
  try {
    const value = JSON.parse(body.toString('utf8')) as Partial<PrismProblem>;
    return typeof value.type === 'string' && value.type.includes('stoplight.io/prism/errors')
      ? (value as PrismProblem)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What Prism's problem says is wrong: its `validation` entries (their locations start with
 * `request`/`response`, or are request parts such as `body`), else its title: a 401 it made
 * for a missing token, a 422 or 500 without a list.
 */
export function prismProblemViolations(
  problem: PrismProblem,
  status: number,
): Omit<ProxyViolation, 'method' | 'path' | 'status'>[] {
  const side = status >= 500 ? 'response' : 'request';
  const list = problem.validation ?? [];
  if (list.length === 0)
    return [{ location: side, severity: 'Error', message: problem.title ?? problem.type }];
  return list.map((v) => {
    const location = (v.location ?? []).join('.');
    return {
      location: /^(request|response)\b/.test(location)
        ? location
        : location
          ? `${side}.${location}`
          : side,
      severity: v.severity ?? 'Error',
      message: v.message ?? problem.title ?? 'violation',
    };
  });
}

/** Prism refuses bodies over 10 MB; larger ones are not buffered further. */
const MAX_BUFFERED_BYTES = 10 * 1024 * 1024;

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BUFFERED_BYTES) throw new Error('request body too large for the proxy');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** Why a JSON-typed body does not parse, or undefined (not JSON-typed, empty, or fine). */
function unparsableJson(contentType: string | undefined, body: Buffer): string | undefined {
  if (body.length === 0 || !/^application\/([\w.+-]+\+)?json\b/i.test(contentType ?? ''))
    return undefined;
  try {
    JSON.parse(body.toString('utf8'));
    return undefined;
  } catch (error) {
    return `the body is not valid JSON (${(error as Error).message})`;
  }
}

function forward(
  req: IncomingMessage,
  body: Buffer,
  res: ServerResponse,
  to: URL,
  path: string,
  options: {
    /** The answer's headers and status, before its body is passed on. */
    onHeaders?: (headers: IncomingHttpHeaders, status: number) => void;
    /** Instead of onHeaders when the answer is one of Prism's own problems (`--errors`). */
    onPrismProblem?: (problem: PrismProblem, status: number) => void;
    basePath?: string;
  } = {},
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
    (answer) => {
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
    },
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

function splitOnce(value: string, separator: string): [string, string | undefined] {
  const at = value.indexOf(separator);
  return at === -1 ? [value, undefined] : [value.slice(0, at), value.slice(at + 1)];
}
