import { describe, expect, it } from 'vitest';
import { ApiProblem } from '../domain/api-problem.js';
import { readBearerToken, wwwAuthenticate } from './bearer-token.js';

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln-_';

function read(authorization: string | null, query = '') {
  return readBearerToken(
    new Headers(authorization === null ? {} : { Authorization: authorization }),
    query,
  );
}

function problemOf(action: () => unknown): ApiProblem {
  try {
    action();
  } catch (error) {
    if (error instanceof ApiProblem) return error;
    throw error;
  }
  throw new Error('expected an ApiProblem');
}

describe('readBearerToken', () => {
  it.each([
    { name: 'a JWT', header: `Bearer ${JWT}`, token: JWT },
    { name: 'a lower-case scheme', header: `bearer ${JWT}`, token: JWT },
    { name: 'an upper-case scheme', header: `BEARER ${JWT}`, token: JWT },
    { name: 'several spaces', header: `Bearer   ${JWT}  `, token: JWT },
    { name: 'b64token padding', header: 'Bearer abc+/==', token: 'abc+/==' },
    { name: 'every b64token character', header: 'Bearer aZ09-._~+/', token: 'aZ09-._~+/' },
  ])('reads $name', ({ header, token }) => {
    expect(read(header)).toEqual({ kind: 'bearer', token });
  });

  it('reads no token when there is no Authorization header', () => {
    expect(read(null)).toEqual({ kind: 'none' });
  });

  it.each([
    { name: 'Basic', header: 'Basic dXNlcjpwYXNz' },
    { name: 'Digest', header: 'Digest username="a"' },
    { name: 'a scheme that starts like Bearer', header: `Bearerx ${JWT}` },
    { name: 'an empty header', header: '' },
  ])('tells another scheme apart: $name', ({ header }) => {
    expect(read(header)).toEqual({ kind: 'other-scheme' });
  });

  it.each([
    { name: 'the scheme alone', header: 'Bearer' },
    { name: 'the scheme and a space', header: 'Bearer ' },
    { name: 'two tokens', header: 'Bearer abc def' },
    { name: 'a quoted token', header: 'Bearer "abc"' },
    { name: 'a non-ASCII token', header: 'Bearer jéton' },
    { name: 'padding in the middle', header: 'Bearer ab=c' },
    { name: 'a comma', header: 'Bearer abc,def' },
  ])('refuses a malformed Bearer header ($name) with 401 invalid-token', ({ header }) => {
    const problem = problemOf(() => read(header));
    expect(problem.slug).toBe('invalid-token');
    expect(problem.status).toBe(401);
  });

  it.each([
    { name: 'with a Bearer header', header: `Bearer ${JWT}` },
    { name: 'with a malformed Bearer header', header: 'Bearer a b' },
  ])(
    'refuses a token in the header and the query ($name) with 400 at #/query/access_token',
    ({ header }) => {
      const problem = problemOf(() => read(header, `access_token=${JWT}`));
      expect(problem.status).toBe(400);
      expect(problem.slug).toBe('validation-failed');
      expect(problem.errors).toEqual([
        expect.objectContaining({ pointer: '#/query/access_token' }),
      ]);
    },
  );

  it.each([
    { name: 'a token', query: `access_token=${JWT}` },
    { name: 'an empty token', query: 'access_token=' },
    { name: 'among other parameters', query: `page=1&access_token=${JWT}` },
  ])('refuses a token only in the query ($name) with 401 invalid-token', ({ query }) => {
    const problem = problemOf(() => read(null, query));
    expect(problem.status).toBe(401);
    expect(problem.slug).toBe('invalid-token');
  });

  it('does not mistake a similar query parameter for a token', () => {
    expect(read(`Bearer ${JWT}`, 'access_tokens=1&token=2')).toEqual({
      kind: 'bearer',
      token: JWT,
    });
  });
});

describe('wwwAuthenticate', () => {
  it.each([
    { presented: false, expected: 'Bearer realm="api"' },
    { presented: true, expected: 'Bearer realm="api", error="invalid_token"' },
  ])('token presented: $presented -> $expected', ({ presented, expected }) => {
    expect(wwwAuthenticate(presented)).toBe(expected);
  });
});
