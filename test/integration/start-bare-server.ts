import { createServer, type RunningServer } from '../../reference-server/create-server.js';
import type { ServerOptions } from '../../node-runtime/server-config.js';
import { TEST_ADMIN_PASSWORD, TEST_JWT_SECRET, TEST_USER_PASSWORD } from '../start-test-server.js';
import type { ServerHandle } from './fixtures.js';

export interface BareServer extends RunningServer, ServerHandle {}

/**
 * Starts the real server like `startTestServer`, but mints the demo tokens with the server's
 * own codec instead of logging in: a server with a rate limit of 1 would refuse the second
 * login, and a draining test must not have spent requests before it starts.
 *
 * @example
 * const server = await startBareServer({ rateLimit: 1, loginRateLimit: 1 });
 */
export async function startBareServer(options: ServerOptions = {}): Promise<BareServer> {
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
  const now = new Date();
  const ttl = server.config.accessTokenTtlSeconds;
  const [adminToken, userToken] = await Promise.all([
    server.ctx.tokens.sign({ sub: '1', name: 'Ada Admin', role: 'ADMIN' }, ttl, now),
    server.ctx.tokens.sign({ sub: '2', name: 'Uma User', role: 'USER' }, ttl, now),
  ]);
  return Object.assign(server, { api: `${server.url}/api/v1`, adminToken, userToken });
}
