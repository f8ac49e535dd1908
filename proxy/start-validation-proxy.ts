import { createServer } from 'node:http';
import { foldRepeatedQuery } from '../spec/fold-repeated-query.js';
import { readOnlyLeniency } from './read-only-leniency.js';
import { API_BASE } from '../core/pipeline/api-paths.js';
import { loadSpec } from '../spec/load-spec.js';
import { specPath as bundledSpecPath } from '../spec/spec-path.js';
import { startPrism, type PrismServer } from '../node-runtime/start-prism.js';
import {
  createProxyTally,
  judgeExchange,
  operationMatcher,
  type ProxyExchange,
  type ProxyFindings,
  type ProxySummary,
  type ProxyViolation,
} from './proxy-tally.js';
import { drainServer } from '../node-runtime/drain-server.js';
import { listenServer } from '../node-runtime/listen-server.js';
import { answerClientError } from '../node-runtime/client-error.js';
import { createProxyHandler } from './create-proxy-handler.js';
import { formatViolation } from './format-violation.js';

export type { ProxyAnswer, ProxyFindings, ProxySummary, ProxyViolation } from './proxy-tally.js';
export { formatViolation } from './format-violation.js';
export { parseViolations } from './parse-violations.js';
export { prismProblemViolations, type PrismProblem } from './prism-problem.js';

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
  /** The findings and 5xx answers so far (the first 10,000 of each kind). */
  findings(): ProxyFindings;
  close(): Promise<void>;
}

/**
 * Prism's validation proxy in front of a live backend, behind a thin front that keeps the
 * backend's URL layout and attributes every violation to its request.
 *
 * How paths map and where violations come from: decision 0073.
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
  const matcher = loadSpec(specPath).then((doc) => ({
    operationOf: operationMatcher(doc),
    lenient: readOnlyLeniency(doc),
    foldQuery: foldRepeatedQuery(doc),
  }));
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
  let described: Awaited<typeof matcher>;
  try {
    described = await matcher;
  } catch (error) {
    await prism.close();
    throw error;
  }
  const tally = createProxyTally();
  /** Sorts one exchange's findings, counts them, reports the violations. */
  const judge = (exchange: ProxyExchange) => {
    const rest = exchange.path.slice(API_BASE.length) || '/';
    const operation = described.operationOf(exchange.method, rest);
    const reported = described.lenient(operation, exchange.reported);
    const verdict = judgeExchange({ ...exchange, reported }, operation);
    const { method, path, status } = exchange;
    tally.record(operation ?? `${method} ${path}`, verdict, {
      method,
      path,
      ...(operation ? { operation } : {}),
      status,
    });
    for (const v of verdict.violations) onViolation(v);
  };

  const server = createServer(
    createProxyHandler({
      target,
      upstream,
      prismUrl: new URL(prism.url),
      foldQuery: described.foldQuery,
      onRequest: () => tally.request(),
      judge,
    }),
  );
  // A header block over Node's limit never reaches Prism or the backend: the front answers it
  // as the servers do, the contract's service-wide 431 problem (decision 0107), not Node's
  // bare 431 that no client can read as the contract's answer.
  server.on('clientError', answerClientError);
  const host = options.host ?? '127.0.0.1';
  const url = await listenServer(server, options.port ?? 4010, host).catch(async (error) => {
    await prism.close();
    throw error;
  });
  let closing: Promise<void> | undefined;
  return {
    url,
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
