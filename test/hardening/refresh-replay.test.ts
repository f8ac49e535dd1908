import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_USER_PASSWORD, type TestServer } from '../start-test-server.js';
import { expectProblem } from '../support/hardening/expect-problem.js';
import { httpCall, type HttpAnswer } from '../support/hardening/http-call.js';

/*
 * Stolen refresh tokens: rotation spends each token once; presenting a spent one revokes its
 * whole family (the thief's and the victim's sessions alike), durably, so a restart does not
 * forget it. File-backed server, real HTTP.
 */

interface Pair {
  accessToken: string;
  refreshToken: string;
}

/** The server's detail for a spent or revoked token (auth-problems.ts). */
const REUSED = /already used or revoked/;

let dir: string;
let server: TestServer;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'apikit-refresh-'));
  server = await startTestServer({ memory: false, dbFile: join(dir, 'db.json') });
});

afterAll(async () => {
  await server?.close();
  await rm(dir, { recursive: true, force: true });
});

const post = (path: string, json: object) =>
  httpCall({
    method: 'POST',
    url: `${server.api}${path}`,
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(json),
  });
const refresh = (refreshToken: string) => post('/auth/refresh', { refreshToken });
const login = async (): Promise<Pair> => {
  const res = await post('/auth/login', {
    username: 'user@example.com',
    password: TEST_USER_PASSWORD,
  });
  expect(res.status).toBe(200);
  return res.json<Pair>();
};
const rotated = async (token: string): Promise<Pair> => {
  const res = await refresh(token);
  expect(res.status, res.text).toBe(200);
  return res.json<Pair>();
};
const expectRefused = (res: HttpAnswer, because: RegExp) => {
  const problem = expectProblem(res, 401, 'invalid-refresh-token');
  expect(problem.detail).toMatch(because);
  // A refresh token in a body is not a bearer token: no error="invalid_token".
  expect(res.headers.get('www-authenticate')).toBe('Bearer realm="api"');
  expect(res.headers.get('cache-control')).toBe('no-store');
};

describe('refresh token replay', () => {
  it('a replayed spent token is 401 and revokes the newer token of its family', async () => {
    const first = await login();
    const second = await rotated(first.refreshToken);
    expectRefused(await refresh(first.refreshToken), REUSED);
    // The legitimate holder's current token is dead too: the family is revoked.
    expectRefused(await refresh(second.refreshToken), REUSED);
  });

  it('a replay deep in a chain revokes the head of the chain', async () => {
    let pair = await login();
    const spent: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      spent.push(pair.refreshToken);
      pair = await rotated(pair.refreshToken);
    }
    expectRefused(await refresh(spent[1] as string), REUSED);
    expectRefused(await refresh(pair.refreshToken), REUSED);
  });

  it('two refreshes racing with one token: one wins, and the family dies with the loser', async () => {
    const pair = await login();
    const answers = await Promise.all([refresh(pair.refreshToken), refresh(pair.refreshToken)]);
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([200, 401]);
    const winner = answers.find((res) => res.status === 200)?.json<Pair>() as Pair;
    expectRefused(await refresh(winner.refreshToken), REUSED);
  });

  it('another family (another login) is untouched by a replay', async () => {
    const victim = await login();
    const bystander = await login();
    await rotated(victim.refreshToken);
    expectRefused(await refresh(victim.refreshToken), REUSED);
    await rotated(bystander.refreshToken);
  });

  it('a token after logout, an access token, and a made-up token are refused', async () => {
    const pair = await login();
    expect((await post('/auth/logout', { refreshToken: pair.refreshToken })).status).toBe(204);
    expectRefused(await refresh(pair.refreshToken), REUSED);
    expectRefused(await refresh(pair.accessToken), /not recognized/);
    expectRefused(await refresh('A'.repeat(43)), /not recognized/);
  });

  it('the revocation survives a restart on the same file', async () => {
    const first = await login();
    const second = await rotated(first.refreshToken);
    const third = await login();
    await server.close();
    server = await startTestServer({ memory: false, dbFile: join(dir, 'db.json') });
    // Spent before the restart: still a replay after it, and the family is revoked.
    expectRefused(await refresh(first.refreshToken), REUSED);
    expectRefused(await refresh(second.refreshToken), REUSED);
    // An unspent token of another family still rotates after the restart.
    await rotated(third.refreshToken);
  });
});
