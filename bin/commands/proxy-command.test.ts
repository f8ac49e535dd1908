import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCli, type RunningCli } from '../../mocks/server/test-support/start-cli.js';
import { runCli } from '../../test/run-cli.js';

// Runs the built CLI: `npm run build` first (npm test does).

/** A deliberately wrong backend: GET /api/v1/users/1 lacks most required fields and headers. */
let backend: Server;
let backendUrl: string;
const received: string[] = [];
let proxy: RunningCli | undefined;

beforeAll(async () => {
  backend = createServer((req, res) => {
    received.push(`${req.method} ${req.url}`);
    if (req.url === '/api/v1/users/1') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ id: 1, name: 'Ada Admin' }));
    } else if (req.url === '/healthz') {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ status: 'ok' }));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => backend.listen(0, '127.0.0.1', resolve));
  backendUrl = `http://127.0.0.1:${(backend.address() as AddressInfo).port}`;
}, 30_000);

afterAll(async () => {
  await proxy?.stop();
  backend.closeAllConnections();
  await new Promise((resolve) => backend.close(resolve));
}, 30_000);

describe('apikit proxy <targetUrl>', () => {
  it('starts in front of the backend and says how paths map', async () => {
    proxy = await startCli(['proxy', backendUrl, '--port', '0'], 90_000);
    expect(proxy.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(proxy.stdout()).toContain(`${proxy.url}/api/v1 -> ${backendUrl}/api/v1`);
  }, 120_000);

  it('passes the answer through and prints the violation: method, path, what is wrong', async () => {
    const res = await fetch(`${proxy!.url}/api/v1/users/1`, {
      headers: { Authorization: 'Bearer any-token' },
    });
    // The client still gets the backend's answer, as it was.
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id: 1, name: 'Ada Admin' });
    expect(received).toContain('GET /api/v1/users/1');
    const out = await proxy!.waitForOutput(/property 'email'/);
    const lines = out.split('\n').filter((l) => l.startsWith('violation'));
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^violation: GET \/api\/v1\/users\/1 -> 200: response\.body: .*required property 'email'/,
      ),
    );
    expect(lines).toContainEqual(expect.stringMatching(/response\.header: .*'x-request-id'/));
  });

  it('sends paths outside the API straight to the backend, unvalidated', async () => {
    const res = await fetch(`${proxy!.url}/healthz`);
    expect(await res.json()).toEqual({ status: 'ok' });
    expect(received).toContain('GET /healthz');
  });

  it('stops cleanly on SIGTERM', async () => {
    expect(await proxy!.stop()).toEqual({ code: 0, signal: null });
  }, 20_000);

  it('refuses a target that is not an http(s) URL (exit 2)', async () => {
    const result = await runCli(['proxy', 'ftp://example.com']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('not an http(s) URL');
  });
});
