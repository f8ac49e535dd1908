import { setupWorker, type SetupWorker } from 'msw/browser';
import { createMockApi, type MockApi, type MockApiOptions } from '../create-mock-api.js';
import { unhandledRequests } from '../unhandled-requests.js';

export { MOCK_DEMO_PASSWORDS } from '../mock-context.js';
export {
  InvalidDataSetError,
  type DataSetFile,
  type DataSetProblem,
} from '../../core/data-set/data-set-format.js';

export interface BrowserMocksOptions extends MockApiOptions {
  /**
   * Where the page's origin serves `mockServiceWorker.js` (copy it with `npx msw init <dir>`);
   * default `/mockServiceWorker.js`, whose scope is the whole origin.
   */
  workerUrl?: string;
  /** Silence MSW's "Mocking enabled" banner and its per-request console groups. */
  quiet?: boolean;
  /**
   * Record the page's interactions in memory (decision 0112): `mock.interactions()`, also
   * `window.__apikitInteractions()` for a browser test to save, e.g. from Playwright with
   * `writeInteractions(file, await page.evaluate(() => window.__apikitInteractions()))`.
   */
  record?: MockApiOptions['record'];
}

/** The running browser mocks. */
export interface BrowserMocks {
  /** The mock API behind the worker: reset, overrides, store, recorded violations. */
  mock: MockApi;
  /** MSW's worker, e.g. for `worker.use(...)` of extra handlers. */
  worker: SetupWorker;
  /** Unregisters the handlers from the worker; the page's requests go to the network again. */
  stop(): void;
}

/**
 * Starts the mocks in a browser: the same handlers as in Node, served by MSW's service worker.
 * Resolves once the worker controls the page and the data set is seeded, so the first `fetch`
 * after it is already answered by the mocks. They claim only the API's own paths (`/api/...`,
 * `/openapi.json`, `/openapi.yaml`, `/healthz`) under `baseUrl`: the page's own files, lazily
 * loaded chunks and other origins go to the network untouched (decision 0044).
 *
 * @example
 * const { mock } = await startBrowserMocks({ baseUrl: location.origin });
 * await fetch('/api/v1/auth/login', { method: 'POST', body: ... }); // answered by the worker
 */
export async function startBrowserMocks(options: BrowserMocksOptions = {}): Promise<BrowserMocks> {
  const { workerUrl = '/mockServiceWorker.js', quiet = false, ...mockOptions } = options;
  const mock = createMockApi(mockOptions);
  const worker = setupWorker(...mock.handlers);
  // 'bypass' under both names: msw 3 ignores msw 2's `onUnhandledRequest` and would warn
  // about every module of the app (decision 0101).
  await worker.start({ serviceWorker: { url: workerUrl }, quiet, ...unhandledRequests('bypass') });
  await mock.ready;
  // What a browser test (Playwright) reads when recording: no file can be written from a page.
  if (mockOptions.record)
    (globalThis as { __apikitInteractions?: () => unknown }).__apikitInteractions = () =>
      mock.interactions();
  return { mock, worker, stop: () => worker.stop() };
}
