import { describe, expect, it } from 'vitest';
import { SecretRedactor } from './secret-redactor.js';

describe('SecretRedactor', () => {
  it('hides configured secrets and tokens learned from answers, everywhere in a recorded exchange', () => {
    const redactor = new SecretRedactor();
    redactor.add('user-password-123', 'user password');
    redactor.learnFrom(
      JSON.stringify({
        accessToken: 'eyJhbGciOi.payload.signature',
        refreshToken: 'r3fr3sh-t0k3n-value',
        expiresIn: 900,
      }),
    );
    const request = redactor.request({
      method: 'POST',
      url: 'http://h/api/v1/auth/refresh',
      headers: { Authorization: 'Bearer eyJhbGciOi.payload.signature' },
      body: '{"refreshToken":"r3fr3sh-t0k3n-value","password":"user-password-123"}',
    });
    expect(JSON.stringify(request)).not.toMatch(/eyJhbGciOi\.payload|r3fr3sh|user-password-123/);
    expect(request.headers.Authorization).toBe('Bearer <accessToken issued to the run>');
    expect(request.body).toBe(
      '{"refreshToken":"<refreshToken issued to the run>","password":"<user password>"}',
    );
  });

  it('splits values around the tokens curl lines name by variables, and says which it used', () => {
    const redactor = new SecretRedactor();
    redactor.learnFrom(JSON.stringify({ accessToken: 'user-access-token-1' }));
    redactor.addVariable('user-access-token-1', 'accessToken issued to the run', {
      name: 'APIKIT_TOKEN',
      holds: 'an access token of user@example.com',
    });
    redactor.add('admin-password-1', 'admin password');
    expect(redactor.usedVariables()).toEqual([]);
    expect(redactor.shellPieces('Bearer user-access-token-1 admin-password-1')).toEqual([
      'Bearer ',
      { variable: 'APIKIT_TOKEN' },
      ' <admin password>',
    ]);
    expect(redactor.usedVariables()).toEqual([
      { name: 'APIKIT_TOKEN', holds: 'an access token of user@example.com' },
    ]);
    // Reports keep the placeholder: only curl lines name the variable.
    expect(redactor.text('Bearer user-access-token-1')).toBe(
      'Bearer <accessToken issued to the run>',
    );
  });

  it('leaves forged tokens and ordinary short values alone', () => {
    const redactor = new SecretRedactor();
    redactor.add('short', 'too short to matter');
    const text = 'Bearer eyJhbGciOiJub25lIn0.e30. and status ok';
    expect(redactor.text(text)).toBe(text);
  });
});
