import { authTokenRules } from './auth-token-rules.js';
import { C, clause, judged, outside, outsideClause, split, type Rule } from './rule.js';

const AUTH = C('Authentication');
const PRECISE = C('Precise rules / Auth');

/** Authentication and token rules: credentials, tokens, refresh families, logout, roles read. */
export const authRules: Rule[] = [
  ...authTokenRules,
  split(
    'auth.login.success',
    'POST /auth/login {username, password} -> 200 {accessToken, refreshToken, tokenType: "Bearer", expiresIn}',
    AUTH,
    [
      clause('status', 'a login answers 200', ['status_code_conformance'], ['login-answers-201']),
      clause(
        'pair',
        'the answer holds accessToken and refreshToken',
        ['response_schema_conformance'],
        ['login-without-refresh-token'],
      ),
      clause(
        'token-type',
        'tokenType is present and exactly "Bearer"',
        ['response_schema_conformance'],
        ['login-without-token-type', 'token-type-lower-case'],
      ),
    ],
  ),
  judged(
    'auth.login.unknown-user',
    "wrong credentials at login: 401 (a username that is no user's email)",
    AUTH,
    ['request_examples'],
    ['login-unknown-user-400'],
    'judged through the request example InvalidCredentials',
  ),
  judged(
    'auth.login.wrong-password',
    'wrong credentials at login: 401 (a known user, a wrong password)',
    AUTH,
    ['session_tokens'],
    ['wrong-password-400'],
  ),
  judged(
    'auth.login.missing-fields',
    'login with missing fields: 400',
    AUTH,
    ['negative_data_rejection'],
    ['login-missing-fields-422'],
  ),
  judged(
    'auth.login.username-case-insensitive',
    "the username is the user's email (case-insensitive)",
    AUTH,
    ['session_tokens'],
    ['username-case-sensitive'],
  ),
  judged(
    'auth.login.blocked-user',
    'a BLOCKED user cannot log in (403)',
    PRECISE,
    ['session_revocation'],
    ['blocked-login-401'],
    'with --allow-destructive: the admin blocks the USER account, then restores it',
  ),
  judged(
    'auth.login.inactive-user',
    'an INACTIVE user may log in',
    PRECISE,
    ['session_revocation'],
    ['inactive-login-refused'],
    'with --allow-destructive: after an unblock the USER account is INACTIVE and logs in',
  ),
  split('auth.no-store', 'responses under /auth carry Cache-Control: no-store', AUTH, [
    clause(
      'login',
      'POST /auth/login answers Cache-Control: no-store',
      ['response_headers_conformance'],
      ['auth-answers-no-cache'],
    ),
    clause(
      'refresh',
      'POST /auth/refresh answers Cache-Control: no-store',
      ['response_headers_conformance'],
      ['refresh-answers-no-cache'],
    ),
    clause(
      'logout',
      'POST /auth/logout answers Cache-Control: no-store',
      ['response_headers_conformance'],
      ['logout-answers-no-cache'],
    ),
  ]),
  judged(
    'auth.token.deleted-user',
    "each request checks that the token's subject still exists (else 401 invalid_token)",
    PRECISE,
    ['deleted_user_token'],
    ['deleted-user-token-accepted'],
    'only the given accounts can log in (users made through the API have no password): only with --allow-destructive and a declared reset (x-apikit-service.reset), for a USER account that logs in after a reset (so a reset brings it back), deleted by the admin, then restored by a second reset',
  ),
  split(
    'auth.token.blocked-user',
    'a token of a user BLOCKED after issue: 401 invalid_token; revocation is immediate (judged with --allow-destructive)',
    PRECISE,
    [
      clause(
        'refused',
        'the token issued before the block is refused (401) at once',
        ['session_revocation'],
        ['blocked-token-accepted'],
      ),
      clause(
        'invalid-token',
        'that 401 names error="invalid_token" (x-apikit-session bearerErrors)',
        ['session_revocation'],
        ['blocked-token-no-invalid-token'],
      ),
    ],
  ),
  judged(
    'auth.token.unblock-restores',
    "unblocking makes the user's unexpired access tokens work again",
    PRECISE,
    ['session_revocation'],
    ['unblock-keeps-tokens-refused'],
    'with --allow-destructive',
  ),
  judged(
    'auth.role.read-at-request',
    "the ADMIN rule reads the user's current roles, so a demotion takes effect at once",
    PRECISE,
    ['role_holders'],
    ['role-read-from-token'],
    'with --allow-destructive: the USER account is promoted and demoted again; its token issued before follows at once',
  ),
  split(
    'auth.refresh.rotation',
    'POST /auth/refresh -> a new pair; the old refresh token is spent (rotation)',
    AUTH,
    [
      clause(
        'new-token',
        'a refresh answers a new pair: a refresh token other than the one presented',
        ['refresh_rotation'],
        ['refresh-same-token'],
      ),
      clause(
        'spent',
        'the refresh token presented is spent: presented again, it is refused',
        ['refresh_rotation'],
        ['refresh-reuse-allowed'],
      ),
      clause(
        'refused-401',
        'a refresh token refused (spent, revoked) is 401, as documented',
        ['refresh_rotation'],
        ['spent-refresh-400'],
      ),
      clause(
        'chain',
        'the refresh token a refresh answers is taken by the next refresh, before any reuse',
        ['refresh_rotation'],
        ['refresh-applied-twice'],
      ),
    ],
  ),
  judged(
    'auth.refresh.family-revocation',
    'presenting a spent refresh token revokes its whole family (reuse detection): 401',
    AUTH,
    ['refresh_rotation'],
    ['refresh-family-kept'],
  ),
  judged(
    'auth.refresh.same-shape',
    'refresh answers in the same shape as login',
    PRECISE,
    ['response_schema_conformance'],
    ['refresh-other-shape'],
  ),
  judged(
    'auth.refresh.blocked-user',
    'a BLOCKED user loses their refresh tokens, so a refresh is 401',
    PRECISE,
    ['session_revocation'],
    ['blocked-refresh-renews'],
    'with --allow-destructive',
  ),
  split('auth.logout.revokes', 'POST /auth/logout {refreshToken} -> 204, revoked', AUTH, [
    clause('status', 'a logout answers 204', ['status_code_conformance'], ['logout-answers-200']),
    clause(
      'revoked',
      'the refresh token logged out no longer renews',
      ['session_tokens'],
      ['logout-keeps-token'],
    ),
  ]),
  judged(
    'auth.logout.unknown-token',
    'logout with an unknown token is 204',
    PRECISE,
    ['session_tokens'],
    ['logout-unknown-400'],
  ),
  split('auth.expires-in', 'expiresIn is integer seconds (900 by default)', PRECISE, [
    clause(
      'integer',
      'expiresIn is an integer',
      ['response_schema_conformance'],
      ['expires-in-string'],
    ),
    clause(
      'lifetime',
      "expiresIn is the access token's lifetime in seconds: exp - iat of the token beside it (x-apikit-session claims.lifetime)",
      ['session_tokens'],
      ['expires-in-milliseconds'],
    ),
    outsideClause(
      'default-900',
      '900 by default',
      'the lifetime is configuration: a runner cannot tell a configured lifetime from a wrong default',
    ),
  ]),
  split(
    'auth.refresh.opaque-hashed',
    'refresh tokens are opaque, at least 256 random bits, stored hashed, valid 7 days',
    PRECISE,
    [
      clause(
        'entropy',
        'at least 256 random bits: 43 characters or more in any encoding of at most 6 bits a character (the minLength of TokenPair.refreshToken)',
        ['response_schema_conformance'],
        ['refresh-token-short'],
      ),
      outsideClause(
        'opaque',
        'opaque',
        'a promise that the token means nothing a client may read; any string of 256 random bits keeps it, so nothing beyond the entropy clause can break it visibly',
      ),
      outsideClause(
        'stored-hashed',
        'stored hashed',
        'a client sees the same token and the same answers whether the store keeps it hashed or plain',
      ),
      outsideClause(
        'seven-days',
        'valid 7 days',
        'a run cannot wait a week, and no answer states when a refresh token expires',
      ),
    ],
  ),
  outside(
    'auth.passwords.hashed',
    'passwords are stored only as salted hashes (scrypt or stronger)',
    AUTH,
    'storage is internal to the server',
  ),
  outside(
    'auth.secret.configuration',
    'the signing secret comes from configuration, at least 32 bytes; without one a random secret and a warning',
    AUTH,
    'server configuration and start-up output, not an answer over the wire',
  ),
  outside(
    'auth.demo-passwords.non-loopback',
    'a server bound to a non-loopback address refuses to start on the default demo passwords',
    AUTH,
    'a start-up rule: a runner only sees a server that already started',
  ),
  outside(
    'auth.token.lifetime',
    'exp 15 minutes by default, configurable',
    AUTH,
    'waiting out an access token is beyond a run; the value is configuration',
  ),
  judged(
    'auth.login.rate-limit',
    '20 login attempts a minute per address',
    C('HTTP semantics shared by every path'),
    ['rate_limit_exceeded'],
    ['login-limit-not-enforced'],
    'only with --provoke-rate-limits, last: the budget the login answers report is spent and must end in 429; the number 20 is configuration and is not judged; nobody at the address can log in until the window ends',
  ),
];
