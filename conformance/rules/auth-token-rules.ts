import { C, I, clause, judged, outsideClause, split, type Rule } from './rule.js';

const AUTH = C('Authentication');
const PRECISE = C('Precise rules / Auth');

/** The access token: when it is refused, its algorithm, the Bearer challenge, its claims. */
export const authTokenRules: Rule[] = [
  split(
    'auth.token.required',
    'everything else (than the open routes): authenticated; no, malformed, expired or wrongly signed token: 401',
    I('Authentication'),
    [
      clause('no-token', 'a request without a token: 401', ['ignored_auth'], ['auth-not-enforced']),
      clause(
        'malformed',
        'a bearer value that is no JWT: 401',
        ['ignored_auth'],
        ['malformed-token-accepted'],
      ),
      clause(
        'wrong-signature',
        'an HS256 token with live claims signed with another key: 401',
        ['ignored_auth'],
        ['forged-signature-accepted'],
      ),
      outsideClause(
        'expired',
        'a correctly signed token past its exp: 401',
        "a client cannot sign (the secret is the server's) and cannot wait out a token (15 minutes by default) within a run; the runner's expired token is signed with another key, so its refusal proves the signature check, not the exp check",
      ),
    ],
  ),
  split(
    'auth.token.hs256-only',
    'JWT, HS256 only (every other alg, none included, is refused)',
    AUTH,
    [
      clause(
        'alg-none',
        'an unsigned token (alg none): 401',
        ['ignored_auth'],
        ['alg-none-accepted'],
      ),
      outsideClause(
        'other-algs',
        'a token of another alg (HS384, HS512, RS256 keyed with the secret): 401',
        "such a token is only a test when it is signed with the server's secret, which a client never has; one signed with any other key is refused for its signature whatever the alg",
      ),
    ],
  ),
  split(
    'auth.401.www-authenticate',
    'every 401 carries WWW-Authenticate: Bearer realm="api"',
    PRECISE,
    [
      clause(
        'present',
        'every 401 carries WWW-Authenticate',
        ['response_headers_conformance'],
        ['www-authenticate-missing'],
      ),
      clause(
        'bearer-realm',
        'the challenge is Bearer realm="api" (the pattern of the spec\'s WWWAuthenticate header)',
        ['response_headers_conformance'],
        ['www-authenticate-without-realm'],
      ),
    ],
  ),
  split(
    'auth.401.invalid-token-only-when-presented',
    'error="invalid_token" only when a bearer token was presented (a refresh token in a body is not one)',
    PRECISE,
    [
      clause(
        'presented',
        'a 401 to a presented bearer token names error="invalid_token"',
        ['ignored_auth'],
        ['invalid-token-error-missing'],
      ),
      clause(
        'no-token',
        'a 401 to a request without a token names no error',
        ['session_tokens'],
        ['invalid-token-without-token'],
      ),
      clause(
        'refresh-body',
        'a 401 to a refresh token in a body names no error',
        ['session_tokens'],
        ['refresh-names-invalid-token'],
      ),
    ],
  ),
  judged(
    'auth.token.two-ways',
    'a bearer token sent in two ways is 400, judged where 401 would be',
    C('Precise rules / Requests'),
    ['session_tokens'],
    ['token-two-ways-accepted'],
    'a valid token in Authorization and as access_token',
  ),
  split(
    'auth.token.claims',
    'claims sub (user id as a string), name, role (ADMIN if the user holds ADMIN, else USER), iat, exp',
    AUTH,
    [
      clause('sub', "sub is the user's id, as a string", ['session_tokens'], ['token-sub-number']),
      clause(
        'name',
        "name is the name of the user sub names (read back through x-apikit-session's subject)",
        ['session_tokens'],
        ['claim-name-is-email'],
      ),
      clause(
        'role',
        'role is ADMIN for a holder of ADMIN (the admin account), else USER',
        ['session_tokens'],
        ['claim-role-always-user'],
      ),
      clause(
        'iat-exp',
        'iat and exp are integer seconds, exp after iat',
        ['session_tokens'],
        ['claim-exp-missing'],
      ),
    ],
  ),
];
