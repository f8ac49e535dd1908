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

  it('leaves forged tokens and ordinary short values alone', () => {
    const redactor = new SecretRedactor();
    redactor.add('short', 'too short to matter');
    const text = 'Bearer eyJhbGciOiJub25lIn0.e30. and status ok';
    expect(redactor.text(text)).toBe(text);
  });
});
