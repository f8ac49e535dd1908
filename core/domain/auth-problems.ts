import { ApiProblem } from './api-problem.js';
import type { TokenRejection } from './ports.js';

/**
 * The problems of authentication, with their details and RFC 6750 challenges in one place.
 * Every 401 carries `WWW-Authenticate: Bearer realm="api"`; `error="invalid_token"` is added
 * only where a bearer token was presented (authenticate), not for a refresh token in a body.
 */

const CHALLENGE = 'Bearer realm="api"';
const INVALID_TOKEN_CHALLENGE = 'Bearer realm="api", error="invalid_token"';

/** One detail for every login failure, so that it never tells which emails exist. */
export const INVALID_CREDENTIALS_DETAIL = 'The username or password is incorrect.';

/** Why a well-signed token still does not authenticate anyone. */
export type SubjectRejection = 'bad-subject' | 'unknown-user' | 'blocked-user';

/** Plain-words reasons for a refused access token; none of them echoes the token. */
const INVALID_TOKEN_DETAILS: Record<TokenRejection | SubjectRejection, string> = {
  expired: 'The access token has expired.',
  signature: 'The access token signature is not valid.',
  algorithm: 'The access token uses an unsupported signing algorithm; only HS256 is accepted.',
  malformed: 'The access token is malformed.',
  'not-yet-valid': 'The access token is not valid yet.',
  'bad-subject': 'The access token subject is not a user id.',
  'unknown-user': 'The user of the access token no longer exists.',
  'blocked-user': 'The user of the access token is blocked.',
};

/** Why a refresh token was refused. */
export type RefreshRejection = 'unknown' | 'expired' | 'reused' | 'unknown-user' | 'blocked-user';

const REFRESH_REJECTION_DETAILS: Record<RefreshRejection, string> = {
  unknown: 'The refresh token is not recognized.',
  expired: 'The refresh token has expired.',
  reused:
    'The refresh token was already used or revoked; every token of its session is now revoked.',
  'unknown-user': 'The user of the refresh token no longer exists.',
  'blocked-user': 'The user of the refresh token is blocked.',
};

/**
 * 401 for a failed login: unknown user, user without password and wrong password alike.
 *
 * @example
 * throw invalidCredentials();
 */
export function invalidCredentials(): ApiProblem {
  return new ApiProblem('invalid-credentials', INVALID_CREDENTIALS_DETAIL, {
    headers: { 'WWW-Authenticate': CHALLENGE },
  });
}

/**
 * 403 for a correct password of a BLOCKED user.
 *
 * @example
 * throw accountBlocked();
 */
export function accountBlocked(): ApiProblem {
  return new ApiProblem('account-blocked', 'This account is blocked.');
}

/**
 * 401 for a refused refresh token.
 *
 * @example
 * throw invalidRefreshToken('expired');
 */
export function invalidRefreshToken(reason: RefreshRejection): ApiProblem {
  return new ApiProblem('invalid-refresh-token', REFRESH_REJECTION_DETAILS[reason], {
    headers: { 'WWW-Authenticate': CHALLENGE },
  });
}

/**
 * 401 for a refused access token: by the codec (expired, signature, ...) or because its
 * subject is no longer a usable user.
 *
 * @example
 * throw invalidToken('expired');
 */
export function invalidToken(reason: TokenRejection | SubjectRejection): ApiProblem {
  return new ApiProblem('invalid-token', INVALID_TOKEN_DETAILS[reason], {
    headers: { 'WWW-Authenticate': INVALID_TOKEN_CHALLENGE },
  });
}
