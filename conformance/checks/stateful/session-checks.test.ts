import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startMockServer,
  type RunningMockServer,
} from '../../../mocks/server/start-mock-server.js';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../../test/start-test-server.js';
import { runConformance } from '../../run-conformance.js';

/**
 * The session, role and id checks (decisions 0082, 0083) on the reference server and the mocks:
 * with --allow-destructive they judge every rule and find nothing, and leave both accounts as
 * they were (status, roles, a working login); without it the destructive ones say why they
 * skipped. What each catches is proven by the broken targets of test/fault-injection.
 */

const CHECKS = [
  'session_tokens',
  'session_revocation',
  'role_invariants',
  'role_holders',
  'id_allocation',
];
const MOCK_USER_PASSWORD = 'session-user-password';
const MOCK_ADMIN_PASSWORD = 'session-admin-password';

let reference: TestServer;
let mocks: RunningMockServer;
beforeAll(async () => {
  [reference, mocks] = await Promise.all([
    startTestServer(),
    startMockServer({
      port: 0,
      adminPassword: MOCK_ADMIN_PASSWORD,
      userPassword: MOCK_USER_PASSWORD,
      jwtSecret: 'session-secret-0123456789-0123456789-0123456789',
    }),
  ]);
}, 60_000);
afterAll(() => Promise.all([reference?.close(), mocks?.close()]));

const targets = [
  {
    name: 'the reference server',
    api: () => reference.api,
    credentials: {
      username: 'user@example.com',
      password: TEST_USER_PASSWORD,
      adminUsername: 'admin@example.com',
      adminPassword: TEST_ADMIN_PASSWORD,
    },
  },
  {
    name: 'the MSW mocks',
    api: () => `${mocks.url}/api/v1`,
    credentials: {
      username: 'user@example.com',
      password: MOCK_USER_PASSWORD,
      adminUsername: 'admin@example.com',
      adminPassword: MOCK_ADMIN_PASSWORD,
    },
  },
];

/** The two login accounts as the admin reads them: email, status, roles. */
async function accounts(api: string, admin: { username: string; password: string }) {
  const login = await fetch(`${api}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(admin),
  });
  expect(login.status).toBe(200);
  const { accessToken } = (await login.json()) as { accessToken: string };
  const headers = { Authorization: `Bearer ${accessToken}` };
  const get = async <T>(path: string) =>
    (await (await fetch(`${api}${path}`, { headers })).json()) as T;
  const page = await get<{ content: { id: number; email: string; status: string }[] }>(
    '/users?size=100',
  );
  const logins = page.content.filter((u) => /^(admin|user)@example\.com$/.test(u.email));
  return Promise.all(
    logins.map(async (u) => ({
      email: u.email,
      status: u.status,
      roles: (await get<{ name: string }[]>(`/users/${u.id}/roles`)).map((r) => r.name).sort(),
    })),
  );
}

describe.each(targets)('the session, role and id checks against $name', ({ api, credentials }) => {
  const admin = { username: credentials.adminUsername, password: credentials.adminPassword };

  it('with --allow-destructive: every rule judged, no failure, the accounts as they were', async () => {
    const before = await accounts(api(), admin);
    expect(before).toHaveLength(2);
    const report = await runConformance({
      baseUrl: api(),
      ...credentials,
      checks: CHECKS,
      allowDestructive: true,
      seed: 82,
    });
    const mine = report.results.filter((r) => CHECKS.includes(r.check));
    const line = (r: (typeof mine)[number]) =>
      `${r.check} ${r.operationId}: ${r.message} ${r.actual ?? ''}`;
    expect(mine.filter((r) => r.status === 'failed').map(line)).toEqual([]);
    expect(mine.filter((r) => r.status === 'skipped').map(line)).toEqual([]);
    for (const check of CHECKS)
      expect(
        mine.some((r) => r.check === check && r.status === 'passed'),
        check,
      ).toBe(true);
    expect(await accounts(api(), admin)).toEqual(before);
    const { username, password } = credentials;
    const login = await fetch(`${api()}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
    expect(login.status).toBe(200);
  }, 60_000);

  it('never blocks the admin account: with one account as USER and admin it skips', async () => {
    const report = await runConformance({
      baseUrl: api(),
      username: credentials.adminUsername,
      password: credentials.adminPassword,
      adminUsername: credentials.adminUsername,
      adminPassword: credentials.adminPassword,
      checks: ['session_revocation'],
      allowDestructive: true,
      seed: 84,
    });
    expect(report.results.filter((r) => r.status === 'failed')).toEqual([]);
    const mine = report.results.filter((r) => r.check === 'session_revocation');
    expect(mine.map((r) => `${r.status}: ${r.message}`)).toEqual([
      'skipped: the USER and admin credentials are one account: blocking it would lock the run out',
    ]);
    expect((await accounts(api(), admin)).map((a) => a.status)).not.toContain('BLOCKED');
  }, 60_000);

  it('without it: the destructive checks skip, saying why', async () => {
    const report = await runConformance({
      baseUrl: api(),
      ...credentials,
      checks: CHECKS,
      seed: 83,
    });
    expect(report.results.filter((r) => r.status === 'failed')).toEqual([]);
    const skipped = report.results
      .filter((r) => r.status === 'skipped' && /allow-destructive/.test(r.message))
      .map((r) => r.check);
    // role_invariants leaves out only its DELETE of the admin account.
    expect(new Set(skipped.filter((c) => CHECKS.includes(c)))).toEqual(
      new Set(['session_revocation', 'role_holders', 'role_invariants']),
    );
  }, 60_000);
});
