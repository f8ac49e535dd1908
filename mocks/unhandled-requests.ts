import { isCommonAssetRequest } from 'msw';
import { isMockedPath } from './mock-answerer.js';

/** What MSW does with a request no handler answers: let it pass, warn, or fail it. */
export type UnhandledRequestStrategy = 'bypass' | 'warn' | 'error';

/** msw 2's callback for an unhandled request (its `UnhandledRequestCallback`). */
type Msw2Callback = (request: Request, print: { warning(): void; error(): void }) => void;

/** msw 3's callback for an unhandled frame (its `UnhandledFrameCallback`). */
type Msw3Callback = (args: {
  frame: { data: unknown };
  defaults: { warn(): void; error(): void };
}) => Promise<void>;

/** MSW's option for unhandled requests under both of its names (decision 0101). */
export interface UnhandledRequestOptions<S extends UnhandledRequestStrategy> {
  /** The name msw 2 reads. */
  onUnhandledRequest: S extends 'bypass' ? S : Msw2Callback;
  /** The name msw 3 reads: it renamed the option and ignores the old name without a word. */
  onUnhandledFrame: S extends 'bypass' ? S : Msw3Callback;
}

/** The mock API whose origin the message names: `createMockApi(...)`'s result. */
export interface UnhandledRequestSource {
  /** The origin the handlers answer (createMockApi's `baseUrl`), or undefined for any origin. */
  readonly origin: string | undefined;
}

/**
 * The options of `server.listen()` and `worker.start()` for requests no handler answers,
 * under the name of msw 2 (`onUnhandledRequest`) and of msw 3 (`onUnhandledFrame`): each
 * major reads its own and ignores the other, and a value that is not an object literal passes
 * both majors' types, so one setup compiles and behaves alike with msw 2 and 3.
 *
 * With 'warn' or 'error', MSW's own message (which shows a same-origin URL as a bare path) is
 * preceded by one line naming the full URL and what the mocks answer: the API's paths, on the
 * origin of `mock`'s baseUrl or on any origin (decision 0104). The app's common assets pass
 * silently, as MSW's own strategies let them.
 *
 * @example
 * beforeAll(() => server.listen(unhandledRequests('error', mock)));
 */
export function unhandledRequests<S extends UnhandledRequestStrategy>(
  strategy: S,
  mock?: UnhandledRequestSource,
): UnhandledRequestOptions<S> {
  if (strategy === 'bypass')
    return {
      onUnhandledRequest: strategy,
      onUnhandledFrame: strategy,
    } as UnhandledRequestOptions<S>;
  const explain = (request: Request): boolean => {
    if (isCommonAssetRequest(request)) return false;
    const say = strategy === 'error' ? console.error : console.warn;
    say(unhandledMessage(request, mock));
    return true;
  };
  // Once a callback is given, MSW's defaults only print. What fails the request is a network
  // error thrown as a Response, which both majors answer with (fetch rejects with a TypeError,
  // as under MSW's own 'error' strategy); any other thrown value would be a 500 answer.
  const msw2: Msw2Callback = (request, print) => {
    if (!explain(request)) return;
    if (strategy === 'warn') return print.warning();
    print.error();
    throw Response.error();
  };
  const msw3: Msw3Callback = async ({ frame, defaults }) => {
    const request = (frame.data as { request?: unknown }).request;
    if (!(request instanceof Request)) {
      // Not an HTTP request (a WebSocket; the API has none): MSW's own words.
      if (strategy === 'warn') return defaults.warn();
      return defaults.error();
    }
    if (!explain(request)) return;
    if (strategy === 'warn') return defaults.warn();
    defaults.error();
    throw Response.error();
  };
  return { onUnhandledRequest: msw2, onUnhandledFrame: msw3 } as UnhandledRequestOptions<S>;
}

/** One line: the request's full URL, and why the mocks did not answer it. */
export function unhandledMessage(request: Request, mock?: UnhandledRequestSource): string {
  const url = new URL(request.url);
  const head = `[apikit mocks] ${request.method} ${url.href} reached no handler:`;
  const paths = '/api/v1/..., /api/..., /openapi.json, /openapi.yaml, /healthz and /readyz';
  if (!mock)
    return `${head} the mocks answer only ${paths} (on createMockApi's baseUrl origin, if one is set).`;
  if (mock.origin === undefined)
    return `${head} not a path of the API; the mocks answer ${paths} on any origin.`;
  if (isMockedPath(url.pathname) && url.origin !== mock.origin)
    return `${head} the mocks answer ${mock.origin} only (createMockApi's baseUrl), not ${url.origin}; leave baseUrl out to answer relative URLs on whatever origin the page has.`;
  return `${head} not a path of the API; the mocks answer ${paths} on ${mock.origin}.`;
}
