import type { OpenAPIV3 } from 'openapi-types';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CheckFailure, ResponseCheck } from '../check.js';
import { parseJson } from '../support/probe-support.js';

const PROBLEM_JSON = 'application/problem+json';

function safeDecode(path: string): string {
  try {
    return decodeURI(path);
  } catch {
    return path;
  }
}

/** The path part of the spec's first server URL (`/api/v1`), variables at their defaults. */
function specBasePath(ctx: RunContext): string {
  const server = ctx.spec.servers?.[0];
  if (!server) return '';
  const url = server.url.replace(/\{([^}]+)\}/g, (_m, name: string) =>
    String(server.variables?.[name]?.default ?? ''),
  );
  try {
    return new URL(url, 'http://host').pathname.replace(/\/$/, '');
  } catch {
    return '';
  }
}

/**
 * Paths a problem's `instance` may name for this request: the request path, and the same
 * path under the spec's server base (a target reached through an alias such as `/api` still
 * names the canonical `/api/v1/...`).
 */
function instancePaths(exchange: Exchange, ctx: RunContext): Set<string> {
  const requested = new URL(exchange.request.url).pathname;
  const below = requested.startsWith(ctx.client.basePath)
    ? requested.slice(ctx.client.basePath.length)
    : requested;
  return new Set([requested, specBasePath(ctx) + below].map(safeDecode));
}

/** What is wrong with a problem body (RFC 9457) for `exchange`, one entry per fault. */
export function problemFaults(exchange: Exchange, ctx: RunContext): CheckFailure[] {
  const status = exchange.response.status;
  const type = (exchange.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== PROBLEM_JSON)
    return [
      {
        message: `a ${status} documented as ${PROBLEM_JSON} came as ${type || 'no media type'}`,
        expected: PROBLEM_JSON,
        actual: type || '(no Content-Type)',
      },
    ];
  const body = parseJson(exchange.response.body);
  if (!body || typeof body !== 'object' || Array.isArray(body))
    return [
      {
        message: `the ${status} problem body is not a JSON object`,
        expected: 'a JSON object',
        actual: exchange.response.body.slice(0, 120) || '(empty)',
      },
    ];
  const problem = body as Record<string, unknown>;
  const faults: CheckFailure[] = [];
  for (const member of ['type', 'title'] as const) {
    if (typeof problem[member] !== 'string' || problem[member] === '')
      faults.push({
        message: `the ${status} problem has no ${member}`,
        expected: `a non-empty string ${member}`,
        actual: JSON.stringify(problem[member]) ?? '(absent)',
      });
  }
  if (problem.status !== status)
    faults.push({
      message: `the problem's status is not the HTTP status ${status}`,
      expected: String(status),
      actual: JSON.stringify(problem.status) ?? '(absent)',
    });
  if (problem.instance !== undefined) {
    const allowed = instancePaths(exchange, ctx);
    let named: string | undefined;
    try {
      if (typeof problem.instance === 'string')
        named = safeDecode(new URL(problem.instance, exchange.request.url).pathname);
    } catch {
      named = undefined;
    }
    if (!named || !allowed.has(named))
      faults.push({
        message: `the ${status} problem's instance is not the request path`,
        expected: [...allowed].join(' or '),
        actual: JSON.stringify(problem.instance),
      });
  }
  return faults;
}

/** The documented response of an exchange, when the exchange is a call of `op` itself. */
function documented(
  exchange: Exchange,
  op: { operationId: string; method: string },
  ctx: RunContext,
): OpenAPIV3.ResponseObject | undefined {
  if (exchange.request.method !== op.method.toUpperCase()) return undefined;
  return ctx.validator.documented(op.operationId, exchange.response.status);
}

/**
 * problem_json: every 4xx/5xx the spec documents as `application/problem+json` is one (RFC
 * 9457): `type` and `title`, `status` equal to the HTTP status, and `instance`, when present,
 * naming the request's path (without the query).
 */
export const problemJson: ResponseCheck = {
  kind: 'response',
  name: 'problem_json',
  description: 'Documented problem answers are RFC 9457 problem+json matching the request',
  check(exchange, op, ctx) {
    if (exchange.response.status < 400) return [];
    const response = documented(exchange, op, ctx);
    if (!response?.content?.[PROBLEM_JSON]) return [];
    return problemFaults(exchange, ctx);
  },
};

/**
 * cache_control_present: a 2xx or 304 answer to GET for which the spec documents a
 * `Cache-Control` header carries one.
 */
export const cacheControlPresent: ResponseCheck = {
  kind: 'response',
  name: 'cache_control_present',
  description: 'GET answers (2xx, 304) carry Cache-Control where the spec documents it',
  check(exchange, op, ctx) {
    const status = exchange.response.status;
    if (op.method !== 'get' || !((status >= 200 && status < 300) || status === 304)) return [];
    const headers = documented(exchange, op, ctx)?.headers ?? {};
    if (!Object.keys(headers).some((h) => h.toLowerCase() === 'cache-control')) return [];
    if (exchange.headers.has('cache-control')) return [];
    return [
      {
        message: `a ${status} answer to GET has no Cache-Control header`,
        expected: 'a Cache-Control header (documented for this answer)',
        actual: '(absent)',
      },
    ];
  },
};
