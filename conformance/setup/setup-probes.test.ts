import jwt from 'jsonwebtoken';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestServer,
  TEST_JWT_SECRET,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../test/start-test-server.js';
import { ConformanceSetupError, runConformance } from '../run-conformance.js';

/**
 * Set-ups that cannot give a verdict stop before the first check with one line that says what
 * to change (decision 0098): a base URL that is the server's origin, a token the target
 * refuses, credentials it refuses, a base URL where the login is not found.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const USER = { username: 'user@example.com', password: TEST_USER_PASSWORD };

async function setupError(options: Parameters<typeof runConformance>[0]): Promise<string> {
  const error = await runConformance({ seed: 1, ...options }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConformanceSetupError);
  return (error as Error).message;
}

describe('set-ups caught before the first check', () => {
  it('names the URL to use when given the origin of an API served under its server path', async () => {
    for (const credentials of [{}, USER]) {
      const message = await setupError({ baseUrl: server.url, ...credentials });
      expect(message).toMatch(
        new RegExp(
          `^give the API's base URL ${server.api}, not ${server.url}: the spec's servers\\[0\\] puts the API under /api/v1 \\(`,
        ),
      );
      expect(message).not.toContain('\n');
    }
  });

  it("does not take the newest version's alias (/api) for a wrong base URL", async () => {
    const report = await runConformance({
      baseUrl: `${server.url}/api`,
      ...USER,
      seed: 1,
      checks: ['not_a_server_error'],
      include: ['getUser'],
    });
    expect(report.summary.results.failed).toBe(0);
  });

  it('stops on a --token the target refuses, and says when a JWT expired', async () => {
    expect(
      await setupError({ baseUrl: server.api, token: 'not-a-token-the-target-issued' }),
    ).toMatch(
      /^the --token was refused \(401 to GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/\S+: .+\): give a valid, unexpired access token of the user, or --username and --password to let the run log in$/,
    );
    const expired = jwt.sign(
      { sub: '2', exp: Math.floor(Date.now() / 1000) - 3600 },
      TEST_JWT_SECRET,
    );
    expect(await setupError({ baseUrl: server.api, token: expired })).toMatch(
      /^the --token was refused \(401 .*\), it expired at \d{4}-\d\d-\d\dT/,
    );
  });

  it('takes a valid --token', async () => {
    const report = await runConformance({
      baseUrl: server.api,
      token: server.userToken,
      seed: 1,
      checks: ['not_a_server_error'],
      include: ['getUser'],
    });
    expect(report.summary.results.failed).toBe(0);
  });

  it('tells refused credentials from a base URL where the login is not found', async () => {
    expect(await setupError({ baseUrl: server.api, ...USER, password: 'not-the-password' })).toBe(
      'login as user@example.com was refused (401 The username or password is incorrect.): check the username and password',
    );
    expect(await setupError({ baseUrl: `${server.url}/api/v2`, ...USER })).toMatch(
      /^the login operation was not found: POST http:\/\/127\.0\.0\.1:\d+\/api\/v2\/auth\/login answered 404.*; check the base URL .*, the credentials were not tried$/,
    );
  });
});
