import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import { ResponseValidator, type ResponseViolation } from '../spec/response-validator.js';
import { API_BASE, apiRelativePath } from '../reference-server/api/api-paths.js';
import { HeaderMap } from '../reference-server/api/header-map.js';
import { renderProblem } from '../reference-server/api/problem-response.js';
import { requestIdOf } from '../reference-server/api/request-id.js';
import { ApiProblem } from '../reference-server/domain/api-problem.js';
import { createRouteTable } from '../reference-server/api/route-table.js';
import { resetData } from '../reference-server/domain/admin-service.js';
import type { Store } from '../reference-server/domain/store.js';
import {
  createMockContext,
  mockSeed,
  mockSpec,
  type MockContext,
  type MockContextOptions,
} from './mock-context.js';
import {
  MockOverrides,
  type OperationId,
  type OverrideAnswer,
  type OverrideOptions,
  type StatusOf,
} from './mock-overrides.js';
import { completeCannedHeaders } from './canned-headers.js';
import { parsePrefer, preferredAnswer } from './prefer-header.js';
import { seededRandom } from '../conformance/generate/seeded-random.js';

export {
  InvalidDataSetError,
  type DataSetFile,
  type DataSetProblem,
} from '../reference-server/data-set/data-set-format.js';

/** A delay in ms, or a [min, max] range drawn per request. */
export type Latency = number | [number, number];

export interface MockApiOptions extends Omit<MockContextOptions, 'onUnexpectedError'> {
  /**
   * Origin the handlers answer for, e.g. `http://localhost:3000`; default: any origin. Under
   * it they claim only the API's own paths (`/api/v1/...`, its alias `/api/...`, `/openapi.json`,
   * `/openapi.yaml`, `/healthz`): everything else (the app's pages, chunks, assets) goes on
   * untouched, so `location.origin` is a fine baseUrl in a browser (decision 0044).
   */
  baseUrl?: string;
  /** Delay of every answer, or per operationId (`default` for the rest). */
  latency?: Latency | Partial<Record<OperationId | 'default', Latency>>;
  /** Validate every answer against the spec and fail loudly on a violation (default true). */
  validateResponses?: boolean;
  /** Seed of the bodies `Prefer: dynamic=true` generates (default 1: the same on every run). */
  seed?: number;
  /**
   * Told about every unexpected failure inside the mocks (answered as a 500 problem naming its
   * cause); default: `console.error` with the stack, so a failing test shows where it broke.
   */
  onUnexpectedError?: (error: unknown, request: Request) => void;
}

/** An answer as the mocks send it: status, headers and the body text (null when none). */
export interface MockAnswer {
  status: number;
  headers: Headers;
  body: string | null;
}

/**
 * Requests whose sender writes the answer out itself (the HTTP adapter of `apikit mock`): for
 * these the handler leaves its answer here and returns a Response without a body, so that the
 * answer's bytes are not put into a body stream only to be read back out of it (decision 0029).
 */
const directAnswers = new WeakMap<Request, MockAnswer | null>();

/**
 * Marks `request` as one whose answer its sender takes with `takeDirectAnswer` once the
 * handlers have answered it. Everything else happens as for any request: routing, auth, the
 * pipeline, overrides, `Prefer`, latency and the validation of the answer against the spec.
 */
export function expectDirectAnswer(request: Request): void {
  directAnswers.set(request, null);
}

/** The answer the handlers left for a request marked by `expectDirectAnswer`, if they did. */
export function takeDirectAnswer(request: Request): MockAnswer | undefined {
  const answer = directAnswers.get(request) ?? undefined;
  directAnswers.delete(request);
  return answer;
}

/** An answer the spec does not allow: the mocks refuse to send it, so no test can pass on it. */
export class ContractViolationError extends Error {
  override name = 'ContractViolationError';
  constructor(
    readonly operationId: string,
    readonly status: number,
    readonly violations: ResponseViolation[],
  ) {
    super(
      `${operationId} answered ${status}, which the contract does not allow: ${violations.map((v) => v.message).join('; ')}`,
    );
  }
}

export interface MockApi {
  /** MSW request handlers: pass them to setupServer / setupWorker. */
  handlers: HttpHandler[];
  /** Resolves once the data set is seeded (requests wait for it by themselves). */
  ready: Promise<void>;
  /** The in-memory store, for assertions on state. */
  store(): Promise<Store>;
  /** Back to the seed data set; overrides and recorded violations are cleared. */
  reset(): Promise<void>;
  /** A canned answer for one operation (typed by the spec), once, n times or at the nth call. */
  override<O extends OperationId, S extends StatusOf<O>>(
    operationId: O,
    answer: OverrideAnswer<O, S>,
    options?: OverrideOptions,
  ): void;
  /** Every contract violation the mocks refused to send, in order. */
  violations: ContractViolationError[];
}

/** The paths the mocks answer for under their origin: the API's and the served documents. */
const OPEN_PATHS = new Set(['/healthz', '/openapi.json', '/openapi.yaml']);

/** Whether a path is the API's own (`/api`, `/api/...`, the open documents), whatever the origin. */
export function isMockedPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/') || OPEN_PATHS.has(pathname);
}

/**
 * MSW handlers that behave exactly like the reference server: the same domain core and the
 * same HTTP pipeline (validation, errors, auth, state transitions, headers), on an in-memory
 * store seeded with the demo data (or a data set of your own), in Node (`setupServer`), in
 * jsdom and happy-dom, and in browsers (`setupWorker`). Throws an InvalidDataSetError listing
 * every problem when `data` is a data set that does not fit the contract.
 *
 * @example
 * const mock = createMockApi({ baseUrl: 'http://localhost:3000', auth: 'off' });
 * const server = setupServer(...mock.handlers);
 */
export function createMockApi(options: MockApiOptions = {}): MockApi {
  // Checked here, synchronously: a bad data set throws at the call, not at the first request.
  const data = mockSeed(options.data);
  // The pipeline's own 500s, by request id, so that the answer can name their cause.
  const unexpected = new Map<string, unknown>();
  const context: Promise<MockContext> = createMockContext({
    ...options,
    data,
    onUnexpectedError: (error, requestId) => unexpected.set(requestId, error),
  });
  // Failing to seed is reported by the first request (and `ready`), never as an unhandled rejection.
  context.catch(() => undefined);
  const overrides = new MockOverrides();
  const violations: ContractViolationError[] = [];
  const spec = mockSpec();
  const routes = createRouteTable(spec);
  const validator = new ResponseValidator(spec);
  const origin = options.baseUrl ? new URL(options.baseUrl).origin : undefined;
  const dynamicBodies = seededRandom(options.seed ?? 1);
  const report =
    options.onUnexpectedError ??
    ((error: unknown, request: Request) =>
      console.error(`[apikit mocks] ${request.method} ${request.url} failed unexpectedly:`, error));

  const answerFor = async (request: Request, url: URL): Promise<Response | undefined> => {
    const relative = apiRelativePath(url.pathname);
    const { api, actingAdminToken } = await context;
    const op =
      relative === undefined
        ? undefined
        : routes
            .match(relative)
            ?.route.operations.get(request.method === 'HEAD' ? 'GET' : request.method);
    // No timer at all without latency: `delay(0)` is still a setTimeout (>= 1 ms in Node) and
    // a turn of the event loop per request (decision 0029).
    const latency = latencyFor(options.latency, op?.operationId);
    if (latency > 0) await delay(latency);

    const overridden = op ? overrides.take(op.operationId) : undefined;
    if (overridden?.networkError) return HttpResponse.error();
    const preference = op ? parsePrefer(request.headers.get('prefer')) : undefined;
    let answer: MockAnswer & { operationId?: string };
    if (op && (overridden || preference)) {
      const canned = overridden ?? preferredAnswer(op, preference!, dynamicBodies);
      // A Prefer the spec cannot answer is the test's mistake, said as a problem naming it.
      if ('error' in canned) throw new MockSetupError(canned.error);
      const status = canned.status ?? 200;
      const requestId = requestIdOf(request.headers.get('x-request-id'));
      const headers = new Headers('headers' in canned ? canned.headers : undefined);
      const body =
        canned.body === undefined
          ? null
          : JSON.stringify(
              ownProblem(canned.body, status, API_BASE + (relative as string), requestId),
            );
      if (body !== null && !headers.has('content-type')) {
        headers.set(
          'Content-Type',
          status >= 400 ? 'application/problem+json' : 'application/json',
        );
      }
      headers.set('X-Request-Id', requestId);
      completeCannedHeaders(op, status, body, headers);
      answer = { status, headers, body, operationId: op.operationId };
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
      });
      if (answer.status === 500) answer = namedCause(answer, request);
    }
    if (options.validateResponses !== false && answer.operationId) {
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
    if (directAnswers.has(request)) {
      directAnswers.set(request, answer);
      // Its status only: the sender writes the answer's headers and body (0029).
      return new Response(null, { status: answer.status });
    }
    return new HttpResponse(answer.body, {
      status: answer.status,
      headers: fetchHeaders(answer.headers),
    });
  };

  /** A 500 of the pipeline whose cause was reported: its detail names the cause (0045). */
  const namedCause = (
    answer: MockAnswer & { operationId?: string },
    request: Request,
  ): MockAnswer & { operationId?: string } => {
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

  const resolve = async (request: Request): Promise<Response | undefined> => {
    const url = new URL(request.url);
    // Only the API's own paths are ours, whatever the origin: the app's pages, chunks and
    // assets on the same origin go on to the network (decision 0044).
    if (!isMockedPath(url.pathname)) return undefined;
    try {
      return await answerFor(request, url);
    } catch (error) {
      // A contract violation must fail the test that caused it: MSW answers it with a 500
      // naming the violation and logs it, and `getResponse` rejects with it (as before).
      if (error instanceof ContractViolationError) throw error;
      if (!(error instanceof MockSetupError)) report(error, request);
      return unexpectedFailure(error, request, url);
    }
  };

  return {
    // A predicate, not a path pattern: MSW decodes a pattern's parameters with
    // decodeURIComponent, which throws on an escape that is not UTF-8 (`/users/%ED%A0%80`) and
    // made a 500 of what the pipeline answers with 400 (found by `apikit conform --fuzz`).
    handlers: [
      http.all(
        ({ request }) => {
          const url = new URL(request.url);
          return (!origin || url.origin === origin) && isMockedPath(url.pathname);
        },
        ({ request }) => resolve(request),
      ),
    ],
    ready: context.then(() => undefined),
    store: async () => (await context).ctx.store,
    async reset() {
      overrides.clear();
      violations.length = 0;
      const { ctx } = await context;
      await resetData(ctx);
    },
    override: (operationId, answer, overrideOptions) =>
      overrides.add(operationId, answer, overrideOptions),
    violations,
  };
}

/** A canned answer the spec cannot give (an undocumented `Prefer: code`, an unknown example). */
class MockSetupError extends Error {
  override name = 'MockSetupError';
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
 * An unexpected failure inside the mocks as the contract's 500 problem+json, naming the cause
 * (the mocks run in tests: the cause is what the developer needs, and there is no one to hide
 * it from), never MSW's raw `{ name, message, stack }`.
 */
function unexpectedFailure(error: unknown, request: Request, url: URL): Response {
  const requestId = requestIdOf(request.headers.get('x-request-id'));
  const relative = apiRelativePath(url.pathname);
  const problem = new ApiProblem(
    'internal-error',
    error instanceof MockSetupError
      ? `The mock cannot answer as asked: ${error.message}`
      : `The mock API failed unexpectedly: ${describeError(error)} (request id ${requestId})`,
  );
  const rendered = renderProblem(
    problem,
    relative === undefined ? url.pathname : API_BASE + relative,
    requestId,
  );
  const headers = new Headers(rendered.headers);
  headers.set('X-Request-Id', requestId);
  return new HttpResponse(request.method === 'HEAD' ? null : rendered.body, {
    status: rendered.status,
    headers,
  });
}

function describeError(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}

/**
 * A real `Headers` of the current realm for a Response: under happy-dom, a Response built with
 * any other object (the pipeline's HeaderMap) silently loses every header.
 */
function fetchHeaders(headers: Headers): Headers {
  const real = new Headers();
  headers.forEach((value, name) => real.append(name, value));
  return real;
}

function latencyFor(latency: MockApiOptions['latency'], operationId: string | undefined): number {
  const pick = (l: Latency | undefined) =>
    l === undefined ? 0 : typeof l === 'number' ? l : l[0] + Math.random() * (l[1] - l[0]);
  if (latency === undefined || typeof latency === 'number' || Array.isArray(latency))
    return pick(latency as Latency | undefined);
  return pick((operationId ? latency[operationId as OperationId] : undefined) ?? latency.default);
}
