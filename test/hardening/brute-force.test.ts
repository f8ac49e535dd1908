import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_USER_PASSWORD } from '../start-test-server.js';
import { startBareServer, type BareServer } from '../integration/start-bare-server.js';
import { expectProblem } from '../support/hardening/expect-problem.js';
import { httpCall, type HttpAnswer } from '../support/hardening/http-call.js';

/*
 * Password guessing: the login limiter counts attempts per client address (the socket's, never
 * a header's), so one address is stopped with 429 + Retry-After while another address keeps
 * its own budget. Clients on 127.0.0.2 and 127.0.0.3 reach the server on 127.0.0.1 through
 * the loopback interface (Linux routes all of 127/8 there).
 */

const LIMIT = 5;
let server: BareServer;

beforeAll(async () => {
  // Tokens are minted, not logged in, so that no attempt is spent before the test.
  server = await startBareServer({ loginRateLimit: LIMIT });
});

afterAll(async () => {
  await server?.close();
});

function attempt(
  from: string,
  password: string,
  username = 'user@example.com',
  headers: Record<string, string> = {},
): Promise<HttpAnswer> {
  return httpCall({
    method: 'POST',
    url: `${server.api}/auth/login`,
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ username, password }),
    localAddress: from,
  });
}

function expectLimited(res: HttpAnswer): void {
  expectProblem(res, 429, 'rate-limited');
  expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(60);
  expect(res.headers.get('ratelimit-policy')).toMatch(new RegExp(`q=${LIMIT}\\b`));
  expect(res.json<{ accessToken?: unknown }>().accessToken).toBeUndefined();
}

describe('login brute force, per address', () => {
  it(`127.0.0.1: ${LIMIT} wrong passwords are 401, then 429 even for the right one`, async () => {
    for (let i = 0; i < LIMIT; i += 1) {
      expectProblem(await attempt('127.0.0.1', `guess-${i}`), 401, 'invalid-credentials');
    }
    expectLimited(await attempt('127.0.0.1', 'guess-next'));
    // The limiter answers before the password is checked: a correct guess is not revealed.
    expectLimited(await attempt('127.0.0.1', TEST_USER_PASSWORD));
  });

  it('127.0.0.1 stays limited with other usernames and spoofed X-Forwarded-For', async () => {
    expectLimited(await attempt('127.0.0.1', 'x', 'admin@example.com'));
    expectLimited(await attempt('127.0.0.1', 'x', 'nobody@example.com'));
    for (const forwarded of ['10.0.0.1', '203.0.113.9', '127.0.0.9']) {
      expectLimited(
        await attempt('127.0.0.1', 'x', 'user@example.com', { 'X-Forwarded-For': forwarded }),
      );
    }
  });

  it('127.0.0.2 has its own budget: the right password logs in, then it is limited alike', async () => {
    const ok = await attempt('127.0.0.2', TEST_USER_PASSWORD);
    expect(ok.status, ok.text).toBe(200);
    for (let i = 1; i < LIMIT; i += 1) {
      expectProblem(await attempt('127.0.0.2', `guess-${i}`), 401, 'invalid-credentials');
    }
    expectLimited(await attempt('127.0.0.2', TEST_USER_PASSWORD));
  });

  it('127.0.0.3 is untouched by the other two', async () => {
    expect((await attempt('127.0.0.3', TEST_USER_PASSWORD)).status).toBe(200);
  });

  it('the login limit does not block a limited address from the rest of the API', async () => {
    const res = await httpCall({
      method: 'GET',
      url: `${server.api}/users/2`,
      headers: { Authorization: `Bearer ${server.userToken}` },
      localAddress: '127.0.0.1',
    });
    expect(res.status).toBe(200);
  });
});
