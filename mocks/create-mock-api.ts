import { http, HttpResponse, type HttpHandler } from 'msw';
import { resetData } from '../core/domain/admin-service.js';
import type { Store } from '../core/domain/store.js';
import { ContractViolationError, violationDetail } from './contract-violation-error.js';
import {
  createMockAnswerer,
  isMockedPath,
  violationAnswer,
  type Latency,
  type MockAnswer,
  type MockOutcome,
} from './mock-answerer.js';
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
import type { InteractionFile } from '../spec/interactions/interaction-file.js';
import {
  emptyRecording,
  recordingAnswers,
  startRecording,
  type RecordOption,
} from './recording.js';

export { ContractViolationError, isMockedPath, type Latency, type MockAnswer, type MockOutcome };
export {
  unhandledRequests,
  type UnhandledRequestOptions,
  type UnhandledRequestStrategy,
} from './unhandled-requests.js';
export type { RecordOption, RecordOptions } from './recording.js';
export { writeInteractions } from './interaction-file-writer.js';
export type {
  InteractionFile,
  RecordedInteraction,
  RecordedRequest,
  RecordedResponse,
  RecordedTest,
} from '../spec/interactions/interaction-file.js';
export {
  InvalidDataSetError,
  type DataSetFile,
  type DataSetProblem,
} from '../core/data-set/data-set-format.js';

export interface MockApiOptions extends Omit<MockContextOptions, 'onUnexpectedError'> {
  /**
   * Origin the handlers answer for, e.g. `http://api.example.test`; default: any origin, so
   * that relative URLs are answered whatever the page's origin (Vitest's jsdom and happy-dom
   * `http://localhost:3000`, Jest's jsdom `http://localhost`, a dev server's): set it only for
   * an API that the app calls on another origin on purpose (decision 0104). Either way they
   * claim only the API's own paths (`/api/v1/...`, its alias `/api/...`, `/openapi.json`,
   * `/openapi.yaml`, `/healthz`, `/readyz`): everything else (the app's pages, chunks, assets) goes on
   * untouched (decision 0044).
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
  /**
   * Record every interaction the tests make, one per shape with the tests that made it, no
   * secret in it (decision 0112): `true`, a file name, `{ file, consumer, test }`, or `false`.
   * Default: on when the environment variable `APIKIT_RECORD=FILE` is set (Node). In Node the
   * file is merged into safely from every test file and worker; `mock.interactions()` gives the
   * recording in memory, in browsers too.
   */
  record?: RecordOption;
}

export interface MockApi {
  /** MSW request handlers: pass them to setupServer / setupWorker. */
  handlers: HttpHandler[];
  /** The origin the handlers answer (`baseUrl`'s), or undefined: any origin, relative URLs too. */
  readonly origin: string | undefined;
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
  /**
   * The mocks' answer to one request, without MSW: what the handlers send, as status, headers
   * and body text; `'network-error'` when an override asks for one; undefined for a request
   * the handlers let pass (another origin than `baseUrl`, a path outside the API). Rejects with
   * a ContractViolationError (also recorded in `violations`) for an answer the spec does not
   * allow; any other failure is a 500 problem naming its cause.
   */
  answer(request: Request): Promise<MockOutcome>;
  /** What this mock recorded so far (`record`, `APIKIT_RECORD`); no interactions when off. */
  interactions(): InteractionFile;
}

/**
 * MSW handlers that behave exactly like the reference server: the same domain core and the
 * same HTTP pipeline (validation, errors, auth, state transitions, headers), on an in-memory
 * store seeded with the demo data (or a data set of your own), in Node (`setupServer`), in
 * jsdom and happy-dom, and in browsers (`setupWorker`). Throws an InvalidDataSetError listing
 * every problem when `data` is a data set that does not fit the contract.
 *
 * @example
 * const mock = createMockApi({ auth: 'off' });
 * const server = setupServer(...mock.handlers);
 * server.listen(unhandledRequests('error', mock));
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
  // Failing to seed is reported by the first request (and `ready`), never as an unhandled
  // rejection: `ready` too is awaited only by those who ask (Jest's process died of it, 0105).
  context.catch(() => undefined);
  const ready = context.then(() => undefined);
  ready.catch(() => undefined);
  const overrides = new MockOverrides();
  const violations: ContractViolationError[] = [];
  const report =
    options.onUnexpectedError ??
    ((error: unknown, request: Request) =>
      console.error(`[apikit mocks] ${request.method} ${request.url} failed unexpectedly:`, error));
  const origin = options.baseUrl ? new URL(options.baseUrl).origin : undefined;
  const answerer = createMockAnswerer({
    context,
    unexpected,
    overrides,
    violations,
    origin,
    latency: options.latency,
    validateResponses: options.validateResponses !== false,
    seed: options.seed ?? 1,
    report,
  });
  const contract = mockSpec().info;
  const recorder = startRecording(options.record, contract);
  const answer = recorder ? recordingAnswers(answerer, recorder) : answerer;

  return {
    // A predicate, not a path pattern: MSW decodes a pattern's parameters with
    // decodeURIComponent, which throws on an escape that is not UTF-8 (`/users/%ED%A0%80`) and
    // made a 500 of what the pipeline answers with 400 (found by `apikit conform --fuzz`).
    // A ContractViolationError thrown by `answer` fails the request as a 500 problem naming the
    // violation, logged in one line (MSW's own handling would add its stack and "unhandled
    // exception" to every such test's output).
    handlers: [
      http.all(
        ({ request }) => {
          const url = new URL(request.url);
          return (!origin || url.origin === origin) && isMockedPath(url.pathname);
        },
        async ({ request }) => {
          try {
            return toResponse(await answer(request));
          } catch (error) {
            if (!(error instanceof ContractViolationError)) throw error;
            // Recorded in `violations` already; the 500 names it, and one line says so.
            console.error(
              `[apikit mocks] ${request.method} ${request.url}: ${violationDetail(error)}`,
            );
            return toResponse(violationAnswer(error, request));
          }
        },
      ),
    ],
    origin,
    answer,
    ready,
    store: async () => (await context).store,
    async reset() {
      overrides.clear();
      violations.length = 0;
      const { ctx } = await context;
      await resetData(ctx);
    },
    override: (operationId, canned, overrideOptions) =>
      overrides.add(operationId, canned, overrideOptions),
    violations,
    interactions: () => recorder?.file() ?? emptyRecording(contract),
  };
}

/** The mocks' answer as MSW sends it; undefined lets the request pass on to the network. */
function toResponse(outcome: MockOutcome): Response | undefined {
  if (outcome === undefined) return undefined;
  if (outcome === 'network-error') return HttpResponse.error();
  return new HttpResponse(outcome.body, {
    status: outcome.status,
    headers: fetchHeaders(outcome.headers),
  });
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
