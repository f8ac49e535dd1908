import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SecretRedactor } from '../secret-redactor.js';
import { curlCommand } from './curl-command.js';

const TOKEN = 'eyJhbGciOi.user-token.signature';
const ADMIN = 'eyJhbGciOi.admin-token.signature';

function redactor(): SecretRedactor {
  const r = new SecretRedactor();
  r.addVariable(TOKEN, 'accessToken issued to the run', {
    name: 'APIKIT_TOKEN',
    holds: 'an access token of user@example.com',
  });
  r.addVariable(ADMIN, 'accessToken issued to the run', {
    name: 'APIKIT_ADMIN_TOKEN',
    holds: 'an access token of admin@example.com',
  });
  r.add('s3cret-password', 'user password');
  return r;
}

/** The words of a command line as a POSIX shell reads them, variables set as given. */
function shellWords(line: string, env: Record<string, string>): string[] {
  const out = execFileSync('sh', ['-c', `printf '%s\\0' ${line.replace(/^curl /, '')}`], {
    env: { PATH: process.env.PATH, ...env },
  });
  return out.toString('utf8').split('\0').slice(0, -1);
}

describe('curlCommand', () => {
  it('single-quotes a request that holds no secret named by a variable', () => {
    expect(
      curlCommand({
        method: 'POST',
        url: "http://h/api/v1/users?q=it's",
        headers: { 'Content-Type': 'application/json' },
        body: '{"name":"O\'Brien"}',
      }),
    ).toBe(
      `curl -i -X POST 'http://h/api/v1/users?q=it'\\''s' -H 'Content-Type: application/json' --data-raw '{"name":"O'\\''Brien"}'`,
    );
  });

  it("names the run's tokens by their variables and hides every other secret", () => {
    const line = curlCommand(
      {
        method: 'PATCH',
        url: 'http://h/api/v1/users/5',
        headers: { Authorization: `Bearer ${TOKEN}` },
        body: '{"password":"s3cret-password"}',
      },
      redactor(),
    );
    expect(line).toBe(
      `curl -i -X PATCH 'http://h/api/v1/users/5' -H "Authorization: Bearer $APIKIT_TOKEN" --data-raw '{"password":"<user password>"}'`,
    );
    expect(line).not.toContain(TOKEN);
  });

  it('gives the admin token its own variable', () => {
    const line = curlCommand(
      { method: 'GET', url: 'http://h/x', headers: { Authorization: `Bearer ${ADMIN}` } },
      redactor(),
    );
    expect(line).toContain('"Authorization: Bearer $APIKIT_ADMIN_TOKEN"');
  });

  it('writes lines a shell reads back into the request, the variables expanded', () => {
    const body = `{"a":"$HOME \`id\` \\\\ \\"q\\" it's","t":"${TOKEN}x","b":"wow!"}`;
    const line = curlCommand(
      {
        method: 'PUT',
        url: 'http://h/x',
        headers: { Authorization: `Bearer ${TOKEN}`, 'X-Both': `${TOKEN}!${ADMIN}` },
        body,
      },
      redactor(),
    );
    const words = shellWords(line, { APIKIT_TOKEN: 'U', APIKIT_ADMIN_TOKEN: 'A' });
    expect(words).toEqual([
      '-i',
      '-X',
      'PUT',
      'http://h/x',
      '-H',
      'Authorization: Bearer U',
      '-H',
      'X-Both: U!A',
      '--data-raw',
      body.replace(TOKEN, 'U'),
    ]);
  });
});
