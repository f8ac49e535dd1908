import { describe, expect, it } from 'vitest';
import type { SpecOperation } from '../../spec/operations.js';
import type { Exchange } from '../http/target-client.js';
import { loginFailure } from './login-failure.js';

const login = { method: 'post', path: '/auth/login' } as SpecOperation;

function answered(status: number, body = ''): Exchange {
  return {
    request: { method: 'POST', url: 'http://h/api/v1/auth/login', headers: {} },
    response: { status, headers: {}, body, durationMs: 1 },
    headers: new Headers(),
  } as Exchange;
}

describe('loginFailure', () => {
  it.each([
    [
      401,
      '{"title":"Unauthorized","detail":"The username or password is incorrect."}',
      'login as u@x.io was refused (401 The username or password is incorrect.): check the username and password',
    ],
    [
      400,
      '{"title":"Request validation failed"}',
      'login as u@x.io was refused (400 Request validation failed): check the username and password',
    ],
    [
      404,
      'Not Found',
      "the login operation was not found: POST http://h/api/v1/auth/login answered 404; check the base URL (the API's, under which /auth/login is found), the credentials were not tried",
    ],
    [
      429,
      '',
      "login as u@x.io was rate limited (429): wait for the target's login window, or run it with a higher login limit",
    ],
    [503, '', 'login as u@x.io failed: POST http://h/api/v1/auth/login answered 503'],
  ])('%i: says what to fix', (status, body, message) => {
    expect(loginFailure('u@x.io', login, answered(status, body))).toBe(message);
  });
});
