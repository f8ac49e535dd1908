import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../spec/load-spec.js';
import { listOperations } from '../../spec/operations.js';
import { ResponseValidator } from '../../spec/response-validator.js';
import { startCluster, type ThrowawayCluster } from '../../scripts/postgres/throwaway-cluster.mjs';
import { authFlowsSuite } from '../integration/auth-flows-suite.js';
import { conditionalRequestsSuite } from '../integration/conditional-requests-suite.js';
import { Fixtures } from '../integration/fixtures.js';
import { idempotencySuite } from '../integration/idempotency-suite.js';
import { listingSuite } from '../integration/listing-suite.js';
import { pairKey, runRow } from '../integration/operation-row.js';
import { problemPrecedenceSuite } from '../integration/problem-precedence-suite.js';
import { routingSuite } from '../integration/routing-suite.js';
import { labelRows, operationTableRows } from '../integration/table-rows.js';
import { writeSemanticsSuite } from '../integration/write-semantics-suite.js';
import { createJwtAccessTokenCodec } from '../../node-runtime/jwt-access-token-codec.js';
import { rateLimitRows } from '../integration/rate-limit-rows.js';
import { TEST_JWT_SECRET, type TestServer } from '../start-test-server.js';
import {
  startPostgresInstances,
  type PostgresInstances,
} from '../support/postgres/postgres-instances.js';
import {
  startPostgresTestServer,
  usePostgresServer,
} from '../support/postgres/postgres-suite-context.js';

// Issue 22: the integration suite (test/integration/) against the reference server on
// PostgreSQL, one instance and three behind the round-robin balancer: the same table of
// operation x documented status and the same suites, grouped on servers as there. Left to the
// file store's run: the rows needing a disk that fails (store-failure-rows; PostgreSQL's own
// 503s are test/repository/postgres-unavailable.test.ts) and the coverage totals (one run of
// the table proves them). The 429 rows run too: their budgets are spent on one instance, and
// with three the rows meet the others (the counters are in the database, decision 0086).

const spec = await loadSpec();
const operations = listOperations(spec);
const byId = new Map(operations.map((op) => [op.operationId, op]));
const validator = new ResponseValidator(spec);
const rows = labelRows(operationTableRows(operations));
const codec = createJwtAccessTokenCodec(TEST_JWT_SECRET);

let cluster: ThrowawayCluster;
beforeAll(async () => {
  cluster = await startCluster();
}, 120_000);
afterAll(() => cluster?.destroy());
const clusterOf = () => cluster;

describe.each([
  ['one instance', 1],
  ['three instances behind a round-robin balancer', 3],
])('the integration suite on PostgreSQL, %s', (_name, count) => {
  describe('every documented status of every operation', () => {
    let server: TestServer;
    const reached = new Set<string>();
    beforeAll(async () => {
      server = await startPostgresTestServer(cluster, count);
    }, 60_000);
    afterAll(() => server?.close());

    it.each(rows)('$title', async (row) => {
      const env = { fx: new Fixtures(server), validator, operations: byId, reached };
      await runRow(env, row, `pg${count}-row-${row.index}`);
    });

    it('answered every (operation, status) pair the rows declare', () => {
      const declared = new Set(rows.map((row) => pairKey(row.operationId, row.status)));
      expect([...declared].filter((key) => !reached.has(key))).toEqual([]);
    });
  });

  describe('429 on every operation once the budgets are spent (counted in the database)', () => {
    let multi: PostgresInstances;
    const reached = new Set<string>();
    let fx: Fixtures;
    beforeAll(async () => {
      multi = await startPostgresInstances({
        cluster,
        count,
        server: { rateLimit: 1, loginRateLimit: 1, jwtSecret: TEST_JWT_SECRET },
      });
      // Tokens minted, not logged in for (a second login would be refused), as startBareServer.
      const ttl = 900;
      const [adminToken, userToken] = await Promise.all([
        codec.sign({ sub: '1', name: 'Ada Admin', role: 'ADMIN' }, ttl, new Date()),
        codec.sign({ sub: '2', name: 'Uma User', role: 'USER' }, ttl, new Date()),
      ]);
      const url = count === 1 ? multi.apis[0]!.replace(/\/api\/v1$/, '') : multi.balancer.url;
      fx = new Fixtures({ url, api: `${url}/api/v1`, adminToken, userToken });
      // One instance spends the budgets; through the balancer the rows meet the others.
      const spend = new Fixtures({ ...fx.server, api: multi.apis[0]! });
      const login = { username: 'user@example.com', password: 'user-demo-password' };
      await spend.expect(200, 'POST', '/auth/login', { token: null, json: login });
      await spend.expect(200, 'GET', '/roles');
    }, 60_000);
    afterAll(() => multi?.close());

    it.each(labelRows(rateLimitRows(operations)))('$title', async (row) => {
      const env = { fx, validator, operations: byId, reached };
      await runRow(env, row, `pg${count}-limited-${row.index}`);
    });
  });

  describe('resource semantics', () => {
    const ctx = usePostgresServer(clusterOf, count);
    conditionalRequestsSuite(ctx);
    writeSemanticsSuite(ctx);
    listingSuite(ctx);
  });

  describe('request handling', () => {
    const ctx = usePostgresServer(clusterOf, count);
    problemPrecedenceSuite(ctx);
    routingSuite(ctx);
  });

  describe('sessions and retries', () => {
    const ctx = usePostgresServer(clusterOf, count);
    authFlowsSuite(ctx);
    idempotencySuite(ctx);
  });
});
