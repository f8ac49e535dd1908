import { delay } from 'msw';
import { ResponseValidator } from '../spec/response-validator.js';
import type { SpecOperation } from '../spec/operations.js';
import { API_BASE, apiRelativePath } from '../core/pipeline/api-paths.js';
import { HeaderMap } from '../core/pipeline/header-map.js';
import { renderProblem } from '../core/pipeline/problem-response.js';
import { requestIdOf } from '../core/pipeline/request-id.js';
import { createRouteTable } from '../core/pipeline/route-table.js';
import { ApiProblem } from '../core/domain/api-problem.js';
import { seededRandom } from '../spec/schema/seeded-random.js';
import { completeCannedHeaders } from './canned-headers.js';
import { ContractViolationError, violationDetail } from './contract-violation-error.js';
import { mockSpec, type MockContext } from './mock-context.js';
import type { MockOverrides, OperationId } from './mock-overrides.js';
import { parsePrefer, preferredAnswer } from './prefer-header.js';

/** A delay in ms, or a [min, max] range drawn per request. */
export type Latency = number | [number, number];

/** An answer as the mocks send it: status, headers and the body text (null when none). */
export interface MockAnswer {
  status: number;
  headers: Headers;
  body: string | null;
  /** The spec operation that answered, once the request was routed to one. */
  operationId?: string;
  /** Set when the test asked for this answer (an override, a `Prefer` header). */
  canned?: 'override' | 'prefer';
}

/**
 * What the mocks make of a request: their answer; `'network-error'` when an override asked for
 * the connection to fail; undefined for a request that is not theirs (another origin than
 * `baseUrl`, a path outside the API such as the app's own pages and assets).
 */
export type MockOutcome = MockAnswer | 'network-error' | undefined;

export interface MockAnswererOptions {
  /** The domain and the pipeline, once seeded (a failure to seed is answered as a 500). */
  context: Promise<MockContext>;
  /** The pipeline's own 500s by request id, left by its onUnexpectedError, to name their cause. */
  unexpected: Map<string, unknown>;
  overrides: MockOverrides;
  /** Where each refused answer is recorded. */
  violations: ContractViolationError[];
  /** The only origin answered; undefined: any. */
  origin: string | undefined;
  latency: Latency | Partial<Record<OperationId | 'default', Latency>> | undefined;
  validateResponses: boolean;
  /** Seed of the bodies `Prefer: dynamic=true` generates. */
  seed: number;
  report: (error: unknown, request: Request) => void;
}

/** The paths the mocks answer for under their origin: the API's and the served documents. */
const OPEN_PATHS = new Set(['/healthz', '/readyz', '/openapi.json', '/openapi.yaml']);

/** Whether a path is the API's own (`/api`, `/api/...`, the open documents), whatever the origin. */
export function isMockedPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/') || OPEN_PATHS.has(pathname);
}

/**
 * The mocks' whole answer to one request, for the MSW handlers and for `apikit mock` alike
 * (decision 0064): the request is routed once; latency, an override (a network error
 * included) or a `Prefer` canned answer about the routed operation, or else the reference
 * server's pipeline with that route; every answer validated against the spec (a violation is
 * recorded and thrown as a ContractViolationError); any other failure a 500 problem naming it.
 */
export function createMockAnswerer(
  options: MockAnswererOptions,
): (request: Request) => Promise<MockOutcome> {
  const { context, unexpected, overrides, violations, origin, report } = options;
  const routes = createRouteTable(mockSpec());
  const validator = new ResponseValidator(mockSpec());
  const dynamicBodies = seededRandom(options.seed);

  const answerOwn = async (request: Request, url: URL): Promise<MockAnswer | 'network-error'> => {
    const relative = apiRelativePath(url.pathname);
    const { api, actingAdminToken } = await context;
    // Routed here, once: the operation the latency, overrides and Prefer are about, and the
    // route the pipeline takes instead of matching the path again.
    const match = relative === undefined ? undefined : routes.match(relative);
    const op = match?.route.operations.get(request.method === 'HEAD' ? 'GET' : request.method);
    // No timer at all without latency: `delay(0)` is still a setTimeout (>= 1 ms in Node) and
    // a turn of the event loop per request (decision 0029).
    const latency = latencyFor(options.latency, op?.operationId);
    if (latency > 0) await delay(latency);

    const overridden = op ? overrides.take(op.operationId) : undefined;
    if (overridden?.networkError) return 'network-error';
    const preference = op ? parsePrefer(request.headers.get('prefer')) : undefined;
    let answer: MockAnswer;
    if (op && (overridden || preference)) {
      const canned = overridden ?? preferredAnswer(op, preference!, dynamicBodies);
      // A Prefer the spec cannot answer is the test's mistake, said as a problem naming it.
      if ('error' in canned) throw new MockSetupError(canned.error);
      answer = {
        ...cannedAnswer(op, canned, request, relative as string),
        canned: overridden ? 'override' : 'prefer',
      };
    } else {
      // Copied entry by entry: `new Headers(request.headers)` on an intercepted request can keep
      // only what fetch added itself (found by the parity suite: the token went missing). Into
      // the pipeline's HeaderMap: the names and values were checked when the Request was made.
      const headers = new HeaderMap();
      request.headers.forEach((value, name) => headers.append(name, value));
      // auth off: a token the codec resolves to the first ADMIN, no JWT signed per request.
      if (actingAdminToken && !headers.has('authorization'))
        headers.set('Authorization', `Bearer ${actingAdminToken}`);
      const bytes = request.body ? new Uint8Array(await request.arrayBuffer()) : null;
      answer = await api.handle({
        method: request.method,
        path: url.pathname,
        query: url.search.slice(1),
        headers,
        body: bytes && bytes.length > 0 ? bytes : null,
        ...(match ? { route: match } : {}),
      });
      if (answer.status === 500) answer = namedCause(answer, request);
    }
    if (options.validateResponses && answer.operationId) {
      const found = validator.validate(answer.operationId, {
        method: request.method,
        status: answer.status,
        headers: answer.headers,
        body: answer.body,
      });
      if (found.length > 0) {
        const error = new ContractViolationError(answer.operationId, answer.status, found);
        violations.push(error);
        throw error; // MSW turns it into a 500 naming the violation and logs it: the test fails
      }
    }
    return answer;
  };

  /** A 500 of the pipeline whose cause was reported: its detail names the cause (0045). */
  const namedCause = (answer: MockAnswer, request: Request): MockAnswer => {
    const requestId = answer.headers.get('x-request-id') ?? '';
    if (!unexpected.has(requestId)) return answer;
    const error = unexpected.get(requestId);
    unexpected.delete(requestId);
    report(error, request);
    if (answer.body === null) return answer; // HEAD: the headers only
    const problem = JSON.parse(answer.body) as Record<string, unknown>;
    problem.detail = `The mock API failed unexpectedly: ${describeError(error)} (request id ${requestId})`;
    const body = JSON.stringify(problem);
    answer.headers.set('Content-Length', String(new TextEncoder().encode(body).length));
    return { ...answer, body };
  };

  return async (request) => {
    const url = new URL(request.url);
    // Only the API's own paths are ours, whatever the origin: the app's pages, chunks and
    // assets on the same origin go on to the network (decision 0044).
    if ((origin && url.origin !== origin) || !isMockedPath(url.pathname)) return undefined;
    try {
      return await answerOwn(request, url);
    } catch (error) {
      // A contract violation must fail the test that caused it: the caller gets it (MSW answers
      // it with a 500 naming the violation and logs it; `apikit mock` answers a problem).
      if (error instanceof ContractViolationError) throw error;
      if (!(error instanceof MockSetupError)) report(error, request);
      return unexpectedFailure(error, request);
    }
  };
}

/** A canned answer the spec cannot give (an undocumented `Prefer: code`, an unknown example). */
class MockSetupError extends Error {
  override name = 'MockSetupError';
}

/**
 * An override or a `Prefer` answer as the server would send it: its problem about this
 * request, the JSON media type, the request id and the headers the spec requires.
 */
function cannedAnswer(
  op: SpecOperation,
  canned: { status?: number; body?: unknown; headers?: Record<string, string> },
  request: Request,
  relative: string,
): MockAnswer {
  const status = canned.status ?? 200;
  const requestId = requestIdOf(request.headers.get('x-request-id'));
  const headers = new Headers(canned.headers);
  const body =
    canned.body === undefined
      ? null
      : JSON.stringify(ownProblem(canned.body, status, API_BASE + relative, requestId));
  if (body !== null && !headers.has('content-type')) {
    headers.set('Content-Type', status >= 400 ? 'application/problem+json' : 'application/json');
  }
  headers.set('X-Request-Id', requestId);
  completeCannedHeaders(op, status, body, headers);
  return { status, headers, body, operationId: op.operationId };
}

/**
 * A canned problem body (a `Prefer` example, an override) about this request: its `instance`
 * and `requestId` are the request's own, as the server's would be, not the example's (0046).
 */
function ownProblem(body: unknown, status: number, instance: string, requestId: string): unknown {
  if (status < 400 || typeof body !== 'object' || body === null || Array.isArray(body)) return body;
  return { ...body, instance, requestId };
}

/**
 * A refused answer as the contract's 500 problem+json, naming the violation: what MSW sends in
 * its place, so the test reads the cause without MSW's "unhandled exception" and its stack.
 */
export function violationAnswer(error: ContractViolationError, request: Request): MockAnswer {
  const answer = problemAnswer(request, () => violationDetail(error));
  return { ...answer, operationId: error.operationId };
}

/**
 * An unexpected failure inside the mocks as the contract's 500 problem+json, naming the cause
 * (the mocks run in tests: the cause is what the developer needs, and there is no one to hide
 * it from), never MSW's raw `{ name, message, stack }`.
 */
function unexpectedFailure(error: unknown, request: Request): MockAnswer {
  return problemAnswer(request, (requestId) =>
    error instanceof MockSetupError
      ? `The mock cannot answer as asked: ${error.message}`
      : `The mock API failed unexpectedly: ${describeError(error)} (request id ${requestId})`,
  );
}

/** The contract's 500 `internal-error` problem about this request, with `detail`. */
function problemAnswer(request: Request, detail: (requestId: string) => string): MockAnswer {
  const url = new URL(request.url);
  const requestId = requestIdOf(request.headers.get('x-request-id'));
  const relative = apiRelativePath(url.pathname);
  const rendered = renderProblem(
    new ApiProblem('internal-error', detail(requestId)),
    relative === undefined ? url.pathname : API_BASE + relative,
    requestId,
  );
  const headers = new Headers(rendered.headers);
  headers.set('X-Request-Id', requestId);
  return {
    status: rendered.status,
    headers,
    body: request.method === 'HEAD' ? null : rendered.body,
  };
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

function latencyFor(
  latency: MockAnswererOptions['latency'],
  operationId: string | undefined,
): number {
  const pick = (l: Latency | undefined) =>
    l === undefined ? 0 : typeof l === 'number' ? l : l[0] + Math.random() * (l[1] - l[0]);
  if (latency === undefined || typeof latency === 'number' || Array.isArray(latency))
    return pick(latency as Latency | undefined);
  return pick((operationId ? latency[operationId as OperationId] : undefined) ?? latency.default);
}
