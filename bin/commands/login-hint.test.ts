import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { loginHint } from './login-hint.js';

/** What bash makes of the hint's `-d` word, with the given environment. */
function pastedBody(lines: string[], env: Record<string, string>): unknown {
  const word = lines[1]!.trim().replace(/^-d /, '');
  const out = execFileSync('bash', ['-c', `printf '%s' ${word}`], {
    env: { ...process.env, ...env },
  });
  return JSON.parse(out.toString());
}

describe('loginHint', () => {
  it('pastes the demo password as printed', () => {
    const lines = loginHint({
      url: 'http://127.0.0.1:3000',
      demoAdminPassword: 'admin-demo-password',
    });
    expect(pastedBody(lines, {})).toEqual({
      username: 'admin@example.com',
      password: 'admin-demo-password',
    });
  });

  it('expands $APIKIT_ADMIN_PASSWORD when the password is configured (not inside single quotes)', () => {
    const lines = loginHint({ url: 'http://127.0.0.1:3000' });
    expect(lines[1]).toContain('$APIKIT_ADMIN_PASSWORD');
    expect(pastedBody(lines, { APIKIT_ADMIN_PASSWORD: 'rotated secret 42' })).toEqual({
      username: 'admin@example.com',
      password: 'rotated secret 42',
    });
  });
});
