import { afterAll, beforeAll } from 'vitest';
import { startTestServer, type TestServer } from '../start-test-server.js';
import type { Dataset } from '../../core/domain/dataset.js';
import type { ServerOptions } from '../../node-runtime/server-config.js';
import { FailingAdapter } from '../support/store/failing-adapter.js';
import { MemoryAdapter } from '../../core/store/memory-adapter.js';
import { Fixtures } from './fixtures.js';

/** What a suite of focused tests runs against; filled in before its first test. */
export interface SuiteContext {
  server: TestServer;
  fx: Fixtures;
  /**
   * The server's disk: in memory, healthy unless a test makes it fail or slow. Undefined where
   * the store is no disk (PostgreSQL, test/postgres/): the tests of a failing disk are not registered.
   */
  disk: FailingAdapter<Dataset> | undefined;
}

/**
 * Starts one real server for a test file (beforeAll) and closes it (afterAll). Suites take the
 * context and read it inside their tests, so several suites share one server and one module
 * graph: starting a server and loading the spec is most of an integration file's cost.
 *
 * @example
 * const ctx = useServer();
 * problemPrecedenceSuite(ctx);
 */
export function useServer(options: ServerOptions = {}): SuiteContext {
  const disk = new FailingAdapter<Dataset>(new MemoryAdapter<Dataset>());
  const ctx: SuiteContext = { disk } as SuiteContext;
  beforeAll(async () => {
    ctx.server = await startTestServer({ adapter: disk, ...options });
    ctx.fx = new Fixtures(ctx.server);
  });
  afterAll(() => ctx.server.close());
  return ctx;
}
