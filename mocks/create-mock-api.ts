import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import { ResponseValidator, type ResponseViolation } from '../spec/response-validator.js';
import { apiRelativePath } from '../reference-server/api/api-paths.js';
import { HeaderMap } from '../reference-server/api/header-map.js';
import { createRouteTable } from '../reference-server/api/route-table.js';
import { resetData } from '../reference-server/domain/admin-service.js';
import type { Store } from '../reference-server/domain/store.js';
import {
  createMockContext,
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

/** A delay in ms, or a [min, max] range drawn per request. */
export type Latency = number | [number, number];

export interface MockApiOptions extends MockContextOptions {
  /** Origin the handlers answer for, e.g. `http://localhost:3000`; default: any origin. */
  baseUrl?: string;
  /** `off` lets a test skip the login dance: requests without a token act as the admin. */
  auth?: 'enforce' | 'off';
  /** Delay of every answer, or per operationId (`default` for the rest). */
  latency?: Latency | Partial<Record<OperationId | 'default', Latency>>;
  /** Validate every answer against the spec and fail loudly on a violation (default true). */
  validateResponses?: boolean;
  /** Seed of the bodies `Prefer: dynamic=true` generates (default 1: the same on every run). */
  seed?: number;
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

/**
 * MSW handlers that behave exactly like the reference server: the same domain core and the
 * same HTTP pipeline (validation, errors, auth, state transitions, headers), on an in-memory
 * store seeded with the demo data, in Node (`setupServer`) and in browsers (`setupWorker`).
 *
 * @example
 * const mock = createMockApi({ baseUrl: 'http://localhost:3000', auth: 'off' });
 * const server = setupServer(...mock.handlers);
 */
export function createMockApi(options: MockApiOptions = {}): MockApi {
  let context: Promise<MockContext> = createMockContext(options);
  const overrides = new MockOverrides();
  const violations: ContractViolationError[] = [];
  const spec = mockSpec();
  const routes = createRouteTable(spec);
  const validator = new ResponseValidator(spec);
  const origin = options.baseUrl ? new URL(options.baseUrl).origin : undefined;
  const dynamicBodies = seededRandom(options.seed ?? 1);

  const resolve = async (request: Request): Promise<Response | undefined> => {
    const url = new URL(request.url);
    const relative = apiRelativePath(url.pathname);
    const open = ['/healthz', '/openapi.json', '/openapi.yaml'].includes(url.pathname);
    // Without a baseUrl the handlers share the page's origin with other traffic: only the API
    // and the open routes are ours. With one, the whole origin is the API server's (404s too).
    if (!origin && relative === undefined && !open) return undefined;
    const { ctx, api } = await context;
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
      if ('error' in canned) return HttpResponse.json({ error: canned.error }, { status: 500 });
      const headers = new Headers('headers' in canned ? canned.headers : undefined);
      const body = canned.body === undefined ? null : JSON.stringify(canned.body);
      if (body !== null && !headers.has('content-type')) {
        headers.set(
          'Content-Type',
          (canned.status ?? 200) >= 400 ? 'application/problem+json' : 'application/json',
        );
      }
      headers.set('X-Request-Id', request.headers.get('x-request-id') ?? crypto.randomUUID());
      completeCannedHeaders(op, canned.status ?? 200, body, headers);
      answer = { status: canned.status ?? 200, headers, body, operationId: op.operationId };
    } else {
      // Copied entry by entry: `new Headers(request.headers)` on an intercepted request can keep
      // only what fetch added itself (found by the parity suite: the token went missing). Into
      // the pipeline's HeaderMap: the names and values were checked when the Request was made.
      const headers = new HeaderMap();
      request.headers.forEach((value, name) => headers.append(name, value));
      if (options.auth === 'off' && !headers.has('authorization')) {
        headers.set(
          'Authorization',
          `Bearer ${await ctx.tokens.sign({ sub: '1', name: 'Ada Admin', role: 'ADMIN' }, 900, ctx.clock())}`,
        );
      }
      const bytes = request.body ? new Uint8Array(await request.arrayBuffer()) : null;
      answer = await api.handle({
        method: request.method,
        path: url.pathname,
        query: url.search.slice(1),
        headers,
        body: bytes && bytes.length > 0 ? bytes : null,
      });
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
    return new HttpResponse(answer.body, { status: answer.status, headers: answer.headers });
  };

  return {
    // A predicate, not a path pattern: MSW decodes a pattern's parameters with
    // decodeURIComponent, which throws on an escape that is not UTF-8 (`/users/%ED%A0%80`) and
    // made a 500 of what the pipeline answers with 400 (found by `apikit conform --fuzz`).
    handlers: [
      http.all(
        ({ request }) => !origin || new URL(request.url).origin === origin,
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

function latencyFor(latency: MockApiOptions['latency'], operationId: string | undefined): number {
  const pick = (l: Latency | undefined) =>
    l === undefined ? 0 : typeof l === 'number' ? l : l[0] + Math.random() * (l[1] - l[0]);
  if (latency === undefined || typeof latency === 'number' || Array.isArray(latency))
    return pick(latency as Latency | undefined);
  return pick((operationId ? latency[operationId as OperationId] : undefined) ?? latency.default);
}
