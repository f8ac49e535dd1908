import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMockServer, type RunningMockServer } from '../../mocks/server/start-mock-server.js';
import { startTestServer, type TestServer } from '../start-test-server.js';
import { expectProblem } from '../support/hardening/expect-problem.js';
import { httpCall } from '../support/hardening/http-call.js';
import { rawExchange } from '../support/hardening/raw-exchange.js';
import { startCli, type RunningCli } from '../support/mock-server/start-cli.js';

/*
 * Issue 34, item 2 (decision 0107): a request line and headers over Node's limit (16 KiB) is
 * 431 problem+json (RFC 6585) on any path, from the reference server, `apikit mock` and
 * `apikit serve` (the built CLI: `npm run build` first), not the parser's plain 400.
 */

let server: TestServer;
let mock: RunningMockServer;
let serve: RunningCli;
const origins: Record<string, string> = {};

beforeAll(async () => {
  [server, mock, serve] = await Promise.all([
    startTestServer(),
    startMockServer({
      port: 0,
      adminPassword: 'oversized-mock-admin-password',
      userPassword: 'oversized-mock-user-password',
      passwordIterations: 1000,
    }),
    startCli(['serve', '--port', '0', '--memory', '--log-format', 'off']),
  ]);
  origins['the reference server'] = server.url;
  origins['apikit mock'] = mock.url;
  origins['apikit serve'] = serve.url;
}, 90_000);
afterAll(async () => {
  await Promise.all([mock?.close(), server?.close(), serve?.stop()]);
});

describe.each(['the reference server', 'apikit mock', 'apikit serve'])('%s', (name) => {
  const origin = () => origins[name]!;

  it('answers a 20 KB header 431 problem+json, naming the path and the request id', async () => {
    const res = await httpCall({
      method: 'GET',
      url: `${origin()}/api/v1/users?size=5`,
      headers: { 'X-Request-Id': 'big-header-1', 'X-Big': 'a'.repeat(20_000) },
    });
    const problem = expectProblem(res, 431, 'header-fields-too-large');
    expect(problem).toMatchObject({
      title: 'Request header fields too large',
      instance: '/api/v1/users',
      requestId: 'big-header-1',
    });
    expect(problem.detail).toMatch(/16384 bytes/);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('connection')).toBe('close');
  });

  it('answers 431 on any path, before routing and authentication', async () => {
    for (const path of ['/api/v1/no-such-path', '/docs', '/healthz']) {
      const res = await httpCall({
        method: 'POST',
        url: `${origin()}${path}`,
        headers: { Cookie: 'c'.repeat(17_000) },
      });
      expect(expectProblem(res, 431, 'header-fields-too-large').instance, path).toBe(path);
    }
  });

  it('answers 431 when the headers overflow in a later packet (path unseen: instance /)', async () => {
    const res = await rawExchange(
      origin(),
      `GET /api/v1/users HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`,
    );
    expect(res.status, res.text.slice(0, 200)).toBe(431);
    expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  it('still serves a header block just under the limit', async () => {
    const res = await httpCall({
      method: 'GET',
      url: `${origin()}/healthz`,
      headers: { 'X-Big': 'a'.repeat(15_000) },
    });
    expect(res.status).toBe(200);
  });
});
