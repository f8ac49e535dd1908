// Issue 33's done-when, on a real recording: the one the vite-react consumer fixture's tests
// left behind (test/consumers/vite-react run with APIKIT_RECORD, committed as
// fixtures/vite-react.interactions.json), replayed against the reference server on the file
// store and on PostgreSQL, and against the `apikit mock` server. A correct backend fails none,
// and skips only what the frontend's tests forced (mock.override, Prefer: code=...). A target
// without a field the app reads fails, naming the interaction and the test from the recording.
// The file is committed: a missing or unreadable one fails here, it is never a silent skip.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance/run-conformance.js';
import type { ConformanceReport } from '../../conformance/report.js';
import { startMockServer, type RunningMockServer } from '../../mocks/server/start-mock-server.js';
import type { InteractionFile } from '../../spec/interactions/interaction-file.js';
import { parseInteractionFile } from '../../spec/interactions/parse-interaction-file.js';
import { startFaultProxy, type FaultProxy } from '../support/fault-injection/fault-proxy.js';
import { isJson, pathOf } from '../support/fault-injection/fault-helpers.js';
import {
  startPostgresInstances,
  type PostgresInstances,
} from '../support/postgres/postgres-instances.js';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../start-test-server.js';

const fixture = join(import.meta.dirname, 'fixtures', 'vite-react.interactions.json');

/** The only reason a correct backend may leave an interaction of this recording unreplayed. */
const CANNED =
  /skipped: the frontend's test forced this answer with (mock\.override|Prefer: [^;]+); a backend is not expected to give it$/;

const TEST_ACCOUNTS = {
  username: 'user@example.com',
  password: TEST_USER_PASSWORD,
  adminUsername: 'admin@example.com',
  adminPassword: TEST_ADMIN_PASSWORD,
};
const DEMO_ACCOUNTS = {
  username: 'user@example.com',
  password: 'user-demo-password',
  adminUsername: 'admin@example.com',
  adminPassword: 'admin-demo-password',
};

let file: InteractionFile;
beforeAll(() => {
  file = parseInteractionFile(readFileSync(fixture, 'utf8'), fixture);
});

async function replay(baseUrl: string, accounts: typeof TEST_ACCOUNTS, seed: number) {
  return runConformance({ baseUrl, ...accounts, interactions: file, seed });
}

/** What a correct backend's replay of the recording must look like. */
function expectPasses(report: ConformanceReport): void {
  const failed = report.results
    .filter((r) => r.status === 'failed')
    .map((r) => `${r.message}: ${r.actual ?? ''}`);
  expect(failed).toEqual([]);
  const skipped = report.results.filter((r) => r.status === 'skipped').map((r) => r.message);
  expect(skipped.filter((m) => !CANNED.test(m))).toEqual([]);
  // Every canned interaction is skipped as such, every other one passes.
  const canned = file.interactions.filter((i) => i.canned !== undefined);
  expect(skipped).toHaveLength(canned.length);
  expect(report.summary.results.passed).toBe(file.interactions.length - canned.length);
  expect(report.consumer?.interactions).toMatchObject({
    total: file.interactions.length,
    failed: 0,
    skipped: canned.length,
  });
}

describe("the vite-react fixture app's recording", () => {
  it('is the committed recording of a real run, with canned answers among its interactions', () => {
    expect(file.consumer).toBe('vite-react');
    expect(file.interactions.length).toBeGreaterThan(5);
    expect(file.interactions.some((i) => i.canned === 'override')).toBe(true);
    expect(file.interactions.some((i) => i.canned === 'prefer')).toBe(true);
  });
});

describe("the vite-react fixture app's recording, replayed against the reference server (file store)", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  it('passes every interaction it can set up, skipping only the canned ones', async () => {
    expectPasses(await replay(server.api, TEST_ACCOUNTS, 4));
  }, 60_000);
});

describe("the vite-react fixture app's recording, replayed against the reference server on PostgreSQL", () => {
  let pg: PostgresInstances;
  beforeAll(async () => {
    pg = await startPostgresInstances({ count: 1 });
  }, 120_000);
  afterAll(() => pg?.close());

  it('passes every interaction it can set up, skipping only the canned ones', async () => {
    expectPasses(await replay(pg.apis[0]!, DEMO_ACCOUNTS, 5));
  }, 120_000);
});

describe("the vite-react fixture app's recording, replayed against the apikit mock server", () => {
  let server: RunningMockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, host: '127.0.0.1', passwordIterations: 1000 });
  });
  afterAll(() => server?.close());

  it('passes every interaction it can set up, skipping only the canned ones', async () => {
    expectPasses(await replay(`${server.url}/api/v1`, DEMO_ACCOUNTS, 6));
  }, 60_000);
});

describe("the vite-react fixture app's recording, replayed against a broken target", () => {
  let server: TestServer;
  let proxy: FaultProxy;
  beforeAll(async () => {
    server = await startTestServer();
    proxy = await startFaultProxy(server.url, {
      username: 'admin@example.com',
      password: TEST_ADMIN_PASSWORD,
    });
  });
  afterAll(async () => {
    await proxy?.close();
    await server?.close();
  });

  it('fails when the users list drops the name UserList renders, naming the interaction and its test', async () => {
    proxy.use({
      response: (res, req) => {
        if (req.method !== 'GET' || pathOf(req) !== '/api/v1/users' || !isJson(res) || !res.body)
          return res;
        const body = JSON.parse(res.body) as { content?: Record<string, unknown>[] };
        for (const user of body.content ?? []) delete user['name'];
        return { ...res, body: JSON.stringify(body) };
      },
    });
    const report = await replay(`${proxy.url}/api/v1`, TEST_ACCOUNTS, 7);
    const failed = report.results.filter((r) => r.status === 'failed');
    const app = failed.find((r) => r.message.includes('interaction "listUsers 200 8ed6bc"'));
    expect(app, failed.map((r) => r.message).join('\n') || 'nothing failed').toBeDefined();
    expect(app?.message).toContain(
      'src/App.test.tsx > renders the users the mocks answer, through a lazily loaded component',
    );
    expect(app?.actual).toMatch(/body content\[\]\.name: missing/);
    expect(app?.curl).toMatch(/^curl -i -X GET /);
    // Only the list's interactions fail: the rest of the recording still passes.
    expect(failed.every((r) => /interaction "listUsers 200 /.test(r.message))).toBe(true);
    expect(report.consumer?.interactions.passed).toBeGreaterThan(0);
  }, 60_000);
});
