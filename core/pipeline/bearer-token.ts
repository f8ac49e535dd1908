import { ApiProblem } from '../domain/api-problem.js';

/** What the request presented as a bearer token. */
export type BearerPresentation =
  { kind: 'none' } | { kind: 'other-scheme' } | { kind: 'bearer'; token: string };

/**
 * Reads the access token of a request (RFC 6750): the Authorization header is the one
 * accepted way. A token in the `access_token` query parameter as well is a token sent in two
 * ways (400, judged where the 401 would be); on its own it is presented but not accepted.
 */
export function readBearerToken(headers: Headers, query: string): BearerPresentation {
  const authorization = headers.get('authorization');
  const inQuery = new URLSearchParams(query).has('access_token');
  if (authorization !== null && inQuery) {
    throw new ApiProblem(
      'validation-failed',
      'The access token was sent in two ways; send it only in the Authorization header',
      {
        errors: [
          {
            pointer: '#/query/access_token',
            detail: 'a bearer token is already in the Authorization header',
          },
        ],
      },
    );
  }
  if (inQuery) {
    throw new ApiProblem(
      'invalid-token',
      'Send the access token in the Authorization header, not in the query',
    );
  }
  if (authorization === null) return { kind: 'none' };
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(authorization);
  if (match) return { kind: 'bearer', token: match[1] as string };
  if (/^Bearer\b/i.test(authorization)) {
    throw new ApiProblem('invalid-token', 'The Authorization header is not "Bearer <token>"');
  }
  return { kind: 'other-scheme' };
}

/** `WWW-Authenticate` for a 401: `error="invalid_token"` only when a bearer token was presented. */
export function wwwAuthenticate(tokenPresented: boolean): string {
  return tokenPresented ? 'Bearer realm="api", error="invalid_token"' : 'Bearer realm="api"';
}

/** Whether the request presented a bearer token at all (well-formed or not, header or query). */
export function isBearerPresented(headers: Headers, query: string): boolean {
  return (
    /^Bearer\b/i.test(headers.get('authorization') ?? '') ||
    new URLSearchParams(query).has('access_token')
  );
}
