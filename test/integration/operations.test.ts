import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../spec/load-spec.js';
import { listOperations } from '../../spec/operations.js';
import { ResponseValidator } from '../../spec/response-validator.js';
import { startTestServer, TEST_USER_PASSWORD, type TestServer } from '../start-test-server.js';
import type { Dataset } from '../../core/domain/dataset.js';
import { FailingAdapter } from '../support/store/failing-adapter.js';
import { MemoryAdapter } from '../../core/store/memory-adapter.js';
import { documentedPairs, exemptions } from './coverage.js';
import { expectDrainAnswers503 } from './drain-check.js';
import type { Observed } from './exchange.js';
import { Fixtures } from './fixtures.js';
import { pairKey, runRow, type OperationRow, type RowEnv } from './operation-row.js';
import { rateLimitRows } from './rate-limit-rows.js';
import { startBareServer, type BareServer } from './start-bare-server.js';
import { runStoreFailureRow, storeFailureRows } from './store-failure-rows.js';
import { labelRows, operationTableRows } from './table-rows.js';

const spec = await loadSpec();
const operations = listOperations(spec);
const byId = new Map(operations.map((op) => [op.operationId, op]));
const validator = new ResponseValidator(spec);
/** Pairs the servers actually answered, filled by every describe below, judged at the end. */
const reached = new Set<string>();

const tableRows: OperationRow[] = operationTableRows(operations);
const limitedRows = rateLimitRows(operations);
/** Reads never write, so their 503 comes only from draining on shutdown. */
const readOperations = operations.filter((op) => op.method === 'get' || op.method === 'options');

const env = (server: TestServer | BareServer): RowEnv => ({
  fx: new Fixtures(server),
  validator,
  operations: byId,
  reached,
});
const label = labelRows;

describe('every documented status of every operation', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it.each(label(tableRows))('$title', async (row) => {
    await runRow(env(server), row, `row-${row.index}`);
  });
});

describe('429 on every operation once the budgets are spent', () => {
  let server: BareServer;
  /** The answers that spent the budgets, judged by the focused tests below. */
  const spent = {} as Record<
    'login' | 'loginAgain' | 'admin' | 'adminAgain' | 'user' | 'options',
    Observed
  >;
  const rateLimited = (res: Observed) =>
    res.headers.has('ratelimit') && res.headers.has('ratelimit-policy');
  beforeAll(async () => {
    server = await startBareServer({ rateLimit: 1, loginRateLimit: 1 });
    const fx = new Fixtures(server);
    const login = { username: 'user@example.com', password: TEST_USER_PASSWORD };
    // The first login spends the address's login and request budgets, the GETs the subjects'.
    spent.login = await fx.call('POST', '/auth/login', { token: null, json: login });
    spent.loginAgain = await fx.call('POST', '/auth/login', { token: null, json: login });
    spent.admin = await fx.call('GET', '/roles');
    spent.adminAgain = await fx.call('GET', '/roles');
    spent.user = await fx.call('GET', '/roles', { token: server.userToken });
    spent.options = await fx.call('OPTIONS', '/roles', { token: null });
  });
  afterAll(() => server.close());

  it('login attempts have their own limit per address (policy "login")', () => {
    expect([spent.login.status, spent.loginAgain.status]).toEqual([200, 429]);
    expect(spent.loginAgain.headers.get('ratelimit-policy')).toMatch(/^"login"/);
  });

  it("requests are limited per token subject: one subject's spent budget leaves another's", () => {
    expect([spent.admin.status, spent.adminAgain.status, spent.user.status]).toEqual([
      200, 429, 200,
    ]);
    expect(spent.admin.headers.get('ratelimit')).toMatch(/^"default"; *r=0; *t=\d+/);
  });

  it('while a limit is in force, every answer under /api carries RateLimit headers', () => {
    for (const [name, res] of Object.entries(spent)) {
      if (name !== 'options') expect(rateLimited(res), name).toBe(true);
    }
  });

  it('... but OPTIONS, which is never limited (a refused preflight is an opaque CORS failure)', () => {
    expect(spent.options.status).toBe(204);
    expect(rateLimited(spent.options), 'no RateLimit headers on OPTIONS').toBe(false);
  });

  it.each(label(limitedRows))('$title', async (row) => {
    await runRow(env(server), row, `limited-${row.index}`);
  });
});

describe('503 while the store cannot be written, and while draining on shutdown', () => {
  let server: TestServer;
  const disk = new FailingAdapter<Dataset>(new MemoryAdapter<Dataset>());
  beforeAll(async () => {
    server = await startTestServer({ adapter: disk });
  });
  afterAll(() => server.close());

  it.each(label(storeFailureRows))('$title', async (row) => {
    await runStoreFailureRow(env(server), disk, row, `disk-${row.index}`);
  });

  // Reads never touch the disk: their documented 503 is the shutdown drain. Runs last: it closes the server.
  it('every read queued behind an in-flight request on a keep-alive connection gets 503 and Connection: close', async () => {
    await expectDrainAnswers503({
      server,
      disk,
      operations: readOperations,
      validator,
      reached: (operationId) => reached.add(pairKey(operationId, 503)),
    });
  });
});

describe('coverage of the documented (operation, status) pairs', () => {
  const documented = documentedPairs(operations);
  const exempt = exemptions(operations);
  const exemptKeys = new Set(exempt.map((e) => pairKey(e.operationId, e.status)));
  const declared = new Set([
    ...tableRows.map((row) => pairKey(row.operationId, row.status)),
    ...limitedRows.map((row) => pairKey(row.operationId, row.status)),
    ...storeFailureRows.map((row) => pairKey(row.operationId, row.status)),
    ...readOperations.map((op) => pairKey(op.operationId, 503)),
  ]);

  it('the table has a row for every documented pair but the exemptions', () => {
    const missing = documented.filter((key) => !exemptKeys.has(key) && !declared.has(key));
    expect(missing).toEqual([]);
    expect([...declared].filter((key) => !documented.includes(key))).toEqual([]);
    for (const e of exempt) {
      expect(documented).toContain(pairKey(e.operationId, e.status));
      expect(declared.has(pairKey(e.operationId, e.status))).toBe(false);
      expect(e.reason.length).toBeGreaterThan(10);
    }
    console.info(
      `documented pairs: ${documented.length}; covered by rows: ${declared.size}; exempted: ${exempt.length} (500)`,
    );
  });

  it('the server answered every pair the table declares', () => {
    const unreached = documented.filter((key) => !exemptKeys.has(key) && !reached.has(key));
    console.info(`pairs reached: ${reached.size} of ${documented.length - exempt.length}`);
    expect(unreached).toEqual([]);
  });
});
