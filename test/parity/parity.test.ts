import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../start-test-server.js';
import { createMockApi, isMockedPath, type MockApi } from '../../mocks/create-mock-api.js';
import { startMockServer, type RunningMockServer } from '../../mocks/server/start-mock-server.js';
import { compareTranscripts, formatDifferences } from './compare.js';
import { runScenarios, type Transcript } from './run-scenarios.js';
import { PARITY_PASSWORDS, scenarios } from './scenarios.js';

/*
 * Parity of the MSW mocks with the reference server: the same scenario suite runs against the
 * handlers in-process (setupServer, plain fetch to http://mock.test) and against the reference
 * server over HTTP (memory store, rate limits off: the mocks never rate limit), each from a
 * fresh demo data set, and every answer must agree after normalize.ts: status, body, and the
 * contract's headers. The same suite runs a third time against `apikit mock` (the handlers served
 * over HTTP by start-mock-server.ts, which takes the handlers' answers directly, decision 0029).
 */

const MOCK_ORIGIN = 'http://mock.test';
/**
 * Outside the API's own paths the MSW handlers let a request pass (decision 0044): there the
 * server's 404 is compared with apikit mock's only, and the MSW mocks must give no answer.
 */
const outsideApi = (path: string) => !isMockedPath(new URL(path, MOCK_ORIGIN).pathname);
const runStart = Date.now();
let serverRun: Transcript[] = [];
let mockRun: Transcript[] = [];
let httpMockRun: Transcript[] = [];
let mock: MockApi;
let httpMock: RunningMockServer;

beforeAll(async () => {
  // The server side first, before MSW patches fetch, so its requests go over the wire untouched.
  const server = await startTestServer({
    rateLimit: 0,
    loginRateLimit: 0,
  });
  try {
    serverRun = await runScenarios(scenarios, {
      origin: server.url,
      passwords: PARITY_PASSWORDS,
    });
  } finally {
    await server.close();
  }

  // `apikit mock` also before MSW patches fetch: its requests go over a real socket.
  httpMock = await startMockServer({
    port: 0,
    adminPassword: PARITY_PASSWORDS.admin,
    userPassword: PARITY_PASSWORDS.user,
    passwordIterations: 1000,
    onViolation: () => undefined, // recorded in httpMock.mock.violations, asserted below
  });
  try {
    httpMockRun = await runScenarios(scenarios, {
      origin: httpMock.url,
      passwords: PARITY_PASSWORDS,
    });
  } finally {
    await httpMock.close();
  }

  mock = createMockApi({
    baseUrl: MOCK_ORIGIN,
    demoPasswords: PARITY_PASSWORDS,
    passwordIterations: 1000,
  });
  const msw = setupServer(
    ...mock.handlers,
    // What the mocks let pass on fails at once as a network error (mock.test does not exist):
    // no request leaves the process, and the difference reads as "no answer".
    http.all(`${MOCK_ORIGIN}/*`, () => HttpResponse.error()),
  );
  msw.listen({ onUnhandledRequest: 'error' });
  try {
    await mock.ready;
    mockRun = await runScenarios(scenarios, {
      origin: MOCK_ORIGIN,
      passwords: PARITY_PASSWORDS,
    });
  } finally {
    msw.close();
  }
}, 120_000);

describe('MSW mocks answer exactly like the reference server', () => {
  it('the suite exercises the contract broadly on the server (no vacuous parity)', () => {
    const statuses = new Set(serverRun.flatMap((t) => t.exchanges.map((e) => e.status)));
    for (const status of [
      200, 201, 204, 304, 400, 401, 403, 404, 405, 406, 409, 412, 413, 415, 422, 501,
    ]) {
      expect(statuses, `no step answered ${status} on the server`).toContain(status);
    }
    const broken = serverRun.flatMap((t) =>
      t.exchanges
        .filter((e) => e.status === 0 || (e.status >= 500 && e.status !== 501))
        .map((e) => `${t.scenario} › ${e.label}: ${e.status} ${e.error ?? e.text ?? ''}`),
    );
    expect(broken, broken.join('\n')).toEqual([]);
    const resets = serverRun.map((t) => t.exchanges[0]?.status);
    expect(
      resets.every((s) => s === 204),
      'every scenario starts with a 204 reset',
    ).toBe(true);
  });

  it.each(scenarios.map((s, i) => [s.name, i] as const))('%s', (name, index) => {
    const server = serverRun[index];
    const mocked = mockRun[index];
    expect(server?.scenario).toBe(name);
    expect(mocked?.scenario).toBe(name);
    const differences = compareTranscripts(server!, mocked!, runStart).filter(
      (d) => !outsideApi(d.request.slice(d.request.indexOf(' ') + 1)),
    );
    expect(
      differences.length,
      `${differences.length} difference(s) between the server and the mocks:\n${formatDifferences(differences)}\n`,
    ).toBe(0);
  });

  it('the mocks refused no answer as a contract violation', () => {
    expect(mock.violations.map((v) => v.message)).toEqual([]);
  });

  it('the mocks let every request outside the API pass (decision 0044)', () => {
    const outside = mockRun.flatMap((t) => t.exchanges).filter((e) => outsideApi(e.path));
    expect(outside.length).toBeGreaterThan(0);
    for (const exchange of outside) {
      expect(exchange.status, `${exchange.method} ${exchange.path}`).toBe(0);
      expect(exchange.error).toBe(
        'the mocks did not answer (the request fell through their handlers)',
      );
    }
  });
});

describe('apikit mock (the MSW handlers over HTTP) answers exactly like the reference server', () => {
  it.each(scenarios.map((s, i) => [s.name, i] as const))('%s', (name, index) => {
    const server = serverRun[index];
    const mocked = httpMockRun[index];
    expect(server?.scenario).toBe(name);
    expect(mocked?.scenario).toBe(name);
    const differences = compareTranscripts(server!, mocked!, runStart);
    expect(
      differences.length,
      `${differences.length} difference(s) between the server and apikit mock:\n${formatDifferences(differences)}\n`,
    ).toBe(0);
  });

  it('apikit mock refused no answer as a contract violation', () => {
    expect(httpMock.mock.violations.map((v) => v.message)).toEqual([]);
  });
});
