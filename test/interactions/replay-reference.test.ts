import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runConformance } from '../../conformance/run-conformance.js';
import type { InteractionFile } from '../../spec/interactions/interaction-file.js';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../start-test-server.js';
import { recordFrontendScenario } from './frontend-scenario.js';

let server: TestServer;
let file: InteractionFile;

beforeAll(async () => {
  [server, file] = await Promise.all([startTestServer(), recordFrontendScenario()]);
});
afterAll(() => server?.close());

describe('apikit conform --interactions against the reference server', () => {
  it('replays every recorded interaction and passes', async () => {
    const report = await runConformance({
      baseUrl: server.api,
      username: 'user@example.com',
      password: TEST_USER_PASSWORD,
      adminUsername: 'admin@example.com',
      adminPassword: TEST_ADMIN_PASSWORD,
      interactions: file,
      seed: 1,
    });
    const lines = report.results.map((r) => `${r.status} ${r.message} ${r.actual ?? ''}`);
    expect(report.summary.checks).toEqual(['consumer_interactions']);
    expect(
      report.results.filter((r) => r.status === 'failed'),
      lines.join('\n'),
    ).toEqual([]);
    expect(report.consumer?.interactions.total).toBe(file.interactions.length);
  });
});

describe('what createMockApi({ record }) recorded, replayed', () => {
  it('passes against the reference server', async () => {
    const { createMockApi } = await import('../../mocks/create-mock-api.js');
    const mock = createMockApi({
      record: {
        consumer: 'mocks-recorder',
        test: () => ({ file: 'src/own.test.ts', name: 'own > flow' }),
      },
    });
    const send = async (path: string, init: RequestInit = {}) => {
      const answer = await mock.answer(new Request(`http://app.test/api/v1${path}`, init));
      if (!answer || answer === 'network-error') throw new Error(`no answer to ${path}`);
      return {
        ...answer,
        json: answer.body ? (JSON.parse(answer.body) as Record<string, unknown>) : {},
      };
    };
    const login = await send('/auth/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'admin@example.com', password: 'admin-demo-password' }),
    });
    const auth = {
      Authorization: `Bearer ${String(login.json['accessToken'])}`,
      'Content-Type': 'application/json',
    };
    const user = await send('/users', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ name: 'Ada', email: 'ada@example.com' }),
    });
    await send(`/users/${String(user.json['id'])}`, { headers: auth });
    await send(`/users/${String(user.json['id'])}/orders`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ product: 'Pen', categoryId: 1 }),
    });
    await send('/users/424242', { headers: auth });
    const recorded = mock.interactions();
    expect(recorded.interactions.length).toBeGreaterThanOrEqual(5);
    const report = await runConformance({
      baseUrl: server.api,
      username: 'user@example.com',
      password: TEST_USER_PASSWORD,
      adminUsername: 'admin@example.com',
      adminPassword: TEST_ADMIN_PASSWORD,
      interactions: JSON.parse(JSON.stringify(recorded)) as InteractionFile,
      seed: 2,
    });
    const notPassed = report.results
      .filter((r) => r.status !== 'passed')
      .map((r) => `${r.message} ${r.actual ?? ''}`);
    expect(notPassed).toEqual([]);
    expect(report.consumer?.consumer).toBe('mocks-recorder');
  });
});

describe('interactions that cannot be set up honestly', () => {
  it('are skipped with the reason, never failed', async () => {
    const base = file.interactions.find((i) => i.key.startsWith('getUser 200 '))!;
    const variant = (key: string, change: Partial<InteractionFile['interactions'][number]>) => ({
      ...base,
      key,
      ...change,
    });
    const odd: InteractionFile = {
      ...file,
      interactions: [
        variant('getUser 500 aaaaaa', { response: { ...base.response, status: 500 } }),
        variant('getUser 403 bbbbbb', { response: { ...base.response, status: 403 } }),
        variant('getUser 200 cccccc', {
          request: {
            ...base.request,
            headers: { ...base.request.headers, prefer: 'code=200, example=x' },
          },
          canned: 'prefer',
        }),
        variant('noSuchOperation 200 dddddd', { operationId: 'noSuchOperation' }),
      ],
    };
    const report = await runConformance({
      baseUrl: server.api,
      username: 'user@example.com',
      password: TEST_USER_PASSWORD,
      adminUsername: 'admin@example.com',
      adminPassword: TEST_ADMIN_PASSWORD,
      interactions: odd,
      seed: 3,
    });
    expect(report.results.map((r) => r.status)).toEqual([
      'skipped',
      'skipped',
      'skipped',
      'skipped',
    ]);
    const messages = report.results.map((r) => r.message).join('\n');
    expect(messages).toMatch(/getUser 500 aaaaaa.*skipped: the 500/);
    expect(messages).toMatch(
      /getUser 200 cccccc.*skipped: the frontend's test forced this answer with Prefer: code=200, example=x; a backend is not expected to give it/,
    );
    expect(report.consumer?.interactions.skipped).toBe(4);
  });
});
