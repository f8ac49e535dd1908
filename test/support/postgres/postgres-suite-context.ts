import { afterAll, beforeAll } from 'vitest';
import type { ThrowawayCluster } from '../../../scripts/postgres/throwaway-cluster.mjs';
import { Fixtures } from '../../integration/fixtures.js';
import type { SuiteContext } from '../../integration/suite-context.js';
import {
  TEST_ADMIN_PASSWORD,
  TEST_JWT_SECRET,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../start-test-server.js';
import { callApi } from './call-api.js';
import { startPostgresInstances, type PostgresInstances } from './postgres-instances.js';

/**
 * The integration suites' server on PostgreSQL: `count` instances on a fresh database, the
 * test passwords, tokens of both demo accounts. With one instance its own URL; with more the
 * balancer's, so that consecutive requests of a test land on different instances. `ctx` is
 * instance 0's (the tokens it signs are good on all: one secret).
 */
export async function startPostgresTestServer(
  cluster: ThrowawayCluster,
  count: number,
): Promise<TestServer & { multi: PostgresInstances }> {
  const multi = await startPostgresInstances({
    cluster,
    count,
    // The suites check the tokens' signatures with the test secret.
    server: {
      adminPassword: TEST_ADMIN_PASSWORD,
      userPassword: TEST_USER_PASSWORD,
      jwtSecret: TEST_JWT_SECRET,
    },
  });
  const url = count === 1 ? multi.instances[0]!.url : multi.balancer.url;
  const api = `${url}/api/v1`;
  const login = async (username: string, password: string) => {
    const res = await callApi(api, 'POST', '/auth/login', {
      body: JSON.stringify({ username, password }),
    });
    if (res.status !== 200) throw new Error(`login as ${username}: ${res.status} ${res.text}`);
    return res.json<{ accessToken: string; refreshToken: string }>();
  };
  try {
    const [admin, user] = await Promise.all([
      login('admin@example.com', TEST_ADMIN_PASSWORD),
      login('user@example.com', TEST_USER_PASSWORD),
    ]);
    return {
      ...multi.instances[0]!,
      url,
      api,
      adminToken: admin.accessToken,
      userToken: user.accessToken,
      login,
      multi,
      close: () => multi.close(),
    };
  } catch (error) {
    await multi.close();
    throw error;
  }
}

/**
 * `useServer` of test/integration on PostgreSQL: started before the suites' tests, closed
 * after them; no disk (`ctx.disk` undefined: the tests of a failing disk are skipped).
 *
 * @example
 * const ctx = usePostgresServer(() => cluster, 3);
 * listingSuite(ctx);
 */
export function usePostgresServer(cluster: () => ThrowawayCluster, count: number): SuiteContext {
  const ctx = { disk: undefined } as SuiteContext;
  beforeAll(async () => {
    ctx.server = await startPostgresTestServer(cluster(), count);
    ctx.fx = new Fixtures(ctx.server);
  }, 60_000);
  afterAll(() => ctx.server?.close());
  return ctx;
}
