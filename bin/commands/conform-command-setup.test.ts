import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../test/run-cli.js';
import {
  startTestServer,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../../test/start-test-server.js';

/**
 * `apikit conform` on a wrong set-up exits 2 before the first check with one line that says
 * what to change (decision 0098), and writes no report.
 */
describe('apikit conform on a wrong set-up', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  /** The `apikit:` line of a run that could not start. */
  async function setupLine(args: string[]): Promise<string> {
    const result = await runCli(['conform', ...args, '--seed', '1']);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.split('\n').filter((l) => l.startsWith('apikit: '));
    expect(lines, result.stderr).toHaveLength(1);
    return lines[0]!;
  }

  it('given the origin, names the base URL to use', async () => {
    expect(await setupLine([server.url])).toMatch(
      new RegExp(
        `^apikit: give the API's base URL ${server.api}, not ${server.url}: the spec's servers\\[0\\] puts the API under /api/v1 `,
      ),
    );
  });

  it('given the origin with credentials, says the same rather than blaming them', async () => {
    const line = await setupLine([
      server.url,
      '--username',
      'user@example.com',
      '--password',
      TEST_USER_PASSWORD,
    ]);
    expect(line).toContain(`give the API's base URL ${server.api}`);
    expect(line).not.toContain('credentials');
  });

  it('with a token the target refuses, says so', async () => {
    expect(await setupLine([server.api, '--token', 'not-a-token-the-target-issued'])).toMatch(
      /^apikit: the --token was refused \(401 to GET \S+: .+\): give a valid, unexpired access token of the user, or --username and --password to let the run log in$/,
    );
  });

  it('with refused credentials, blames them', async () => {
    expect(
      await setupLine([server.api, '--username', 'user@example.com', '--password', 'wrong-one']),
    ).toBe(
      'apikit: login as user@example.com was refused (401 The username or password is incorrect.): check the username and password',
    );
  });
});
