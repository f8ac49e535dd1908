import { afterEach, describe, expect, it } from 'vitest';
import { createServer, type RunningServer } from '../create-server.js';

let server: RunningServer | undefined;
afterEach(() => server?.close());

async function loginsFrom(api: string, forwardedFor: string, count: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < count; i += 1) {
    const res = await fetch(`${api}/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': forwardedFor },
      body: JSON.stringify({ username: 'nobody@example.com', password: 'wrong-password' }),
    });
    statuses.push(res.status);
  }
  return statuses;
}

// Behind a balancer every request comes from its address: without --trust-proxy all clients
// would share one login budget (decision 0089's finding); with it, each forwarded client has its own.
describe('--trust-proxy', () => {
  it('counts logins per forwarded client when the proxy is trusted', async () => {
    server = await createServer({
      memory: true,
      port: 0,
      loginRateLimit: 2,
      trustProxy: 'loopback',
    });
    const api = `${server.url}/api/v1`;
    expect(await loginsFrom(api, '203.0.113.7', 3)).toEqual([401, 401, 429]);
    expect(await loginsFrom(api, '198.51.100.9', 1)).toEqual([401]);
  });

  it('ignores X-Forwarded-For by default: a client cannot pick a fresh budget', async () => {
    server = await createServer({ memory: true, port: 0, loginRateLimit: 2 });
    const api = `${server.url}/api/v1`;
    expect(await loginsFrom(api, '203.0.113.7', 2)).toEqual([401, 401]);
    expect(await loginsFrom(api, '198.51.100.9', 1)).toEqual([429]);
  });
});
