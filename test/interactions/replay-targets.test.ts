// Issue 33: the recording replayed against the reference server on PostgreSQL, and against the
// `apikit mock` server (answer() over HTTP): a correct backend passes, whatever its store.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/server/start-mock-server.js';
import { runConformance } from '../../conformance/run-conformance.js';
import type { InteractionFile } from '../../spec/interactions/interaction-file.js';
import {
  startPostgresInstances,
  type PostgresInstances,
} from '../support/postgres/postgres-instances.js';
import { recordFrontendScenario } from './frontend-scenario.js';

let file: InteractionFile;
beforeAll(async () => {
  file = await recordFrontendScenario();
});

async function replay(api: string) {
  const report = await runConformance({
    baseUrl: api,
    username: 'user@example.com',
    password: 'user-demo-password',
    adminUsername: 'admin@example.com',
    adminPassword: 'admin-demo-password',
    interactions: file,
    seed: 1,
  });
  const failed = report.results
    .filter((r) => r.status !== 'passed')
    .map((r) => `${r.status} ${r.message}: ${r.actual ?? ''}`);
  return { report, failed };
}

describe('the recording replayed against the apikit mock server', () => {
  let server: RunningMockServer;
  beforeAll(async () => {
    server = await startMockServer({ port: 0, host: '127.0.0.1', passwordIterations: 1000 });
  });
  afterAll(() => server?.close());

  it('passes every interaction', async () => {
    const { report, failed } = await replay(`${server.url}/api/v1`);
    expect(failed).toEqual([]);
    expect(report.summary.results.passed).toBe(file.interactions.length);
  });
});

describe('the recording replayed against the reference server on PostgreSQL', () => {
  let pg: PostgresInstances;
  beforeAll(async () => {
    pg = await startPostgresInstances({ count: 1 });
  }, 120_000);
  afterAll(() => pg?.close());

  it('passes every interaction', async () => {
    const { report, failed } = await replay(pg.apis[0]!);
    expect(failed).toEqual([]);
    expect(report.summary.results.passed).toBe(file.interactions.length);
  }, 120_000);
});
