import { createServer, type RunningServer } from '../reference-server/create-server.js';
import type { ServerOptions } from '../node-runtime/server-config.js';

/** A running reference server for tests, with tokens of the two demo accounts. */
export interface TestServer extends RunningServer {
  /** `${url}/api/v1` */
  api: string;
  adminToken: string;
  userToken: string;
  /** Logs in through the API and returns the token pair. */
  login(username: string, password: string): Promise<{ accessToken: string; refreshToken: string }>;
}

export const TEST_ADMIN_PASSWORD = 'test-admin-password';
export const TEST_USER_PASSWORD = 'test-user-password';
export const TEST_JWT_SECRET = 'test-secret-test-secret-test-secret-0123456789';

/**
 * Starts the real reference server on 127.0.0.1, port 0, memory store, rate limits off unless
 * asked, and logs in as admin@example.com and user@example.com. Close it in afterAll.
 *
 * @example
 * const server = await startTestServer();
 * const res = await fetch(`${server.api}/users/1`, { headers: { Authorization: `Bearer ${server.adminToken}` } });
 */
export async function startTestServer(options: ServerOptions = {}): Promise<TestServer> {
  const server = await createServer({
    port: 0,
    memory: true,
    rateLimit: 0,
    loginRateLimit: 0,
    jwtSecret: TEST_JWT_SECRET,
    adminPassword: TEST_ADMIN_PASSWORD,
    userPassword: TEST_USER_PASSWORD,
    ...options,
  });
  const api = `${server.url}/api/v1`;
  const login = async (username: string, password: string) => {
    const res = await fetch(`${api}/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    if (res.status !== 200)
      throw new Error(`login as ${username} failed: ${res.status} ${await res.text()}`);
    return (await res.json()) as { accessToken: string; refreshToken: string };
  };
  const [admin, user] = await Promise.all([
    login('admin@example.com', TEST_ADMIN_PASSWORD),
    login('user@example.com', TEST_USER_PASSWORD),
  ]);
  return { ...server, api, adminToken: admin.accessToken, userToken: user.accessToken, login };
}
