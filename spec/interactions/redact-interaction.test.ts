import { describe, expect, it } from 'vitest';
import { PLACEHOLDERS } from './interaction-file.js';
import {
  redactAuthorization,
  redactBody,
  redactRequest,
  redactResponse,
} from './redact-interaction.js';

const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxIiwicm9sZSI6IkFETUlOIn0.6QwLy2EAQ3T9IPRE1cvAKi-iHiCwdn0gq3jsHHSc4vM';

describe('redaction', () => {
  it('replaces Authorization’s credentials, keeping the scheme', () => {
    expect(redactAuthorization(`Bearer ${JWT}`)).toBe(`Bearer ${PLACEHOLDERS.accessToken}`);
    expect(redactAuthorization('bearer opaque-token')).toBe(`bearer ${PLACEHOLDERS.accessToken}`);
    expect(redactAuthorization('Basic YWRtaW46c2VjcmV0')).toBe(`Basic ${PLACEHOLDERS.password}`);
    expect(redactAuthorization('token-alone')).toBe(PLACEHOLDERS.accessToken);
  });

  it('replaces passwords and tokens in bodies at any depth, not the other fields', () => {
    const body = {
      username: 'admin@example.com',
      password: 'admin-demo-password',
      nested: [{ currentPassword: 'a', newPassword: 'b', accessToken: 'x', refreshToken: 'y' }],
      tokenType: 'Bearer',
      expiresIn: 900,
      note: `token ${JWT} inside`,
      passwordPolicy: { minLength: 8 },
    };
    expect(redactBody(body)).toEqual({
      username: 'admin@example.com',
      password: PLACEHOLDERS.password,
      nested: [
        {
          currentPassword: PLACEHOLDERS.password,
          newPassword: PLACEHOLDERS.password,
          accessToken: PLACEHOLDERS.accessToken,
          refreshToken: PLACEHOLDERS.refreshToken,
        },
      ],
      tokenType: 'Bearer',
      expiresIn: 900,
      note: `token ${PLACEHOLDERS.accessToken} inside`,
      passwordPolicy: { minLength: 8 },
    });
    expect(body.password).toBe('admin-demo-password'); // a copy
  });

  it('replaces access_token in the query and a JWT anywhere in a request or an answer', () => {
    const request = redactRequest({
      method: 'GET',
      path: `/api/v1/echo/${JWT}`,
      query: [
        ['access_token', 'opaque'],
        ['q', JWT],
        ['page', '1'],
      ],
      headers: { authorization: `Bearer ${JWT}`, 'x-forwarded': JWT },
    });
    const response = redactResponse({
      status: 200,
      headers: { 'x-token': JWT },
      body: { accessToken: JWT, refreshToken: 'r' },
    });
    const text = JSON.stringify([request, response]);
    expect(text).not.toContain('eyJ');
    expect(text).not.toContain('opaque');
    expect(request.query).toEqual([
      ['access_token', PLACEHOLDERS.accessToken],
      ['q', PLACEHOLDERS.accessToken],
      ['page', '1'],
    ]);
    expect(response.body).toEqual({
      accessToken: PLACEHOLDERS.accessToken,
      refreshToken: PLACEHOLDERS.refreshToken,
    });
  });
});
