/**
 * Faults that each break one clause of an authentication rule (issue 32, decision 0114): a
 * token refused for one reason but not another, one claim of the access token, one part of the
 * Bearer challenge, one field of the token answer, one step of refresh rotation.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { jwtClaims, signHs256 } from '../../../conformance/checks/support/bad-credentials.js';
import { TEST_JWT_SECRET } from '../../start-test-server.js';
import {
  API,
  editJson,
  is2xx,
  isObject,
  parsed,
  pathOf,
  problemAnswer,
  type Json,
} from './fault-helpers.js';
import type { FaultHooks, ProxyRequest, ProxyResponse } from './fault-proxy.js';
import type { Fault } from './faults.js';

const SECRET = Buffer.from(TEST_JWT_SECRET);
const bearer = (req: ProxyRequest) => /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
const isAuth = (req: ProxyRequest, name: string) =>
  req.method === 'POST' && pathOf(req) === `${API}/auth/${name}`;
const isTokenAnswer = (req: ProxyRequest) => isAuth(req, 'login') || isAuth(req, 'refresh');
const withChallenge = (res: ProxyResponse, challenge: string): ProxyResponse => ({
  ...res,
  headers: { ...res.headers, 'www-authenticate': challenge },
});

/** The JOSE header of a JWT, or undefined. */
function joseHeader(token: string): Json | undefined {
  const json = parsed(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8'));
  return isObject(json) ? json : undefined;
}

/** The signature an HS256 JWT would carry under the server's secret. */
const signatureOf = (token: string) =>
  createHmac('sha256', SECRET).update(token.split('.').slice(0, 2).join('.')).digest('base64url');

/**
 * Hands out access tokens whose claims `edit` changed (signed with the server's secret, so a
 * client sees a genuine JWT) and maps them back to the server's own on the way in: the server
 * keeps working, only what the token says is wrong.
 */
function editedClaims(edit: (claims: Json) => Json): FaultHooks {
  const genuine = new Map<string, string>();
  return {
    request: (req) => {
      const token = bearer(req);
      const original = token && genuine.get(token);
      return original
        ? { ...req, headers: { ...req.headers, authorization: `Bearer ${original}` } }
        : req;
    },
    response: (res, req) => {
      if (!is2xx(res) || !isTokenAnswer(req)) return res;
      return editJson(res, (body) => {
        if (!isObject(body) || typeof body.accessToken !== 'string') return body;
        const changed = signHs256(edit(jwtClaims(body.accessToken) ?? {}), SECRET);
        genuine.set(changed, body.accessToken);
        return { ...body, accessToken: changed };
      });
    },
  };
}

/**
 * Hands out refresh tokens `change` made of the server's own, and maps them back on the way in
 * (login, refresh and logout bodies): the session works, only the token a client sees differs.
 */
function editedRefreshTokens(change: (token: string, presented: string | undefined) => string) {
  const genuine = new Map<string, string>();
  return {
    request: (req: ProxyRequest): ProxyRequest => {
      if (req.method !== 'POST' || !pathOf(req).startsWith(`${API}/auth/`)) return req;
      const body = parsed(req.body);
      if (!isObject(body) || typeof body.refreshToken !== 'string') return req;
      const original = genuine.get(body.refreshToken);
      return original ? { ...req, body: JSON.stringify({ ...body, refreshToken: original }) } : req;
    },
    response: (res: ProxyResponse, req: ProxyRequest): ProxyResponse => {
      if (!is2xx(res) || !isTokenAnswer(req)) return res;
      const sent = parsed(req.body);
      const presented =
        isObject(sent) && typeof sent.refreshToken === 'string' ? sent.refreshToken : undefined;
      return editJson(res, (body) => {
        if (!isObject(body) || typeof body.refreshToken !== 'string') return body;
        const changed = change(body.refreshToken, presented);
        genuine.set(changed, body.refreshToken);
        return { ...body, refreshToken: changed };
      });
    },
  };
}

export const malformedTokenAccepted: Fault = {
  name: 'malformed-token-accepted',
  description:
    'a bearer value that is no JWT at all is served as the admin (a parse failure falls back to a default identity)',
  expectedCheck: 'ignored_auth',
  include: ['listUsers'],
  create: () => ({
    request: async (req, ctx) => {
      const token = bearer(req);
      return token && jwtClaims(token) === undefined
        ? { ...req, headers: { ...req.headers, authorization: await ctx.adminAuthorization() } }
        : req;
    },
  }),
};

export const forgedSignatureAccepted: Fault = {
  name: 'forged-signature-accepted',
  description:
    'an HS256 token signed with another key is accepted: the claims are decoded and their exp checked, the signature never verified',
  expectedCheck: 'ignored_auth',
  include: ['listUsers'],
  create: () => ({
    request: (req) => {
      const token = bearer(req);
      const claims = jwtClaims(token);
      if (!token || !claims || joseHeader(token)?.alg !== 'HS256') return req;
      if (!(Number(claims.exp) > Date.now() / 1000) || token.split('.')[2] === signatureOf(token))
        return req;
      return {
        ...req,
        headers: { ...req.headers, authorization: `Bearer ${signHs256(claims, SECRET)}` },
      };
    },
  }),
};

export const wwwAuthenticateWithoutRealm: Fault = {
  name: 'www-authenticate-without-realm',
  description: 'every 401 challenges with a bare `Bearer` scheme: no realm="api"',
  expectedCheck: 'response_headers_conformance',
  include: ['listUsers'],
  create: () => ({
    response: (res) => {
      const challenge = res.headers['www-authenticate'];
      return res.status === 401 && challenge
        ? withChallenge(res, challenge.replace(/realm="[^"]*",?\s*/i, '').trim())
        : res;
    },
  }),
};

export const invalidTokenErrorMissing: Fault = {
  name: 'invalid-token-error-missing',
  description:
    'a 401 to a presented bad bearer token challenges without error="invalid_token" (the same challenge as no token)',
  expectedCheck: 'ignored_auth',
  include: ['listUsers'],
  create: () => ({
    response: (res, req) =>
      res.status === 401 && bearer(req) ? withChallenge(res, 'Bearer realm="api"') : res,
  }),
};

export const invalidTokenWithoutToken: Fault = {
  name: 'invalid-token-without-token',
  description:
    'a 401 to a request of the API that carried no token at all names error="invalid_token"',
  expectedCheck: 'session_tokens',
  include: ['login', 'listUsers'],
  create: () => ({
    response: (res, req) =>
      res.status === 401 && !req.headers.authorization && !pathOf(req).startsWith(`${API}/auth/`)
        ? withChallenge(res, 'Bearer realm="api", error="invalid_token"')
        : res,
  }),
};

export const loginAnswers201: Fault = {
  name: 'login-answers-201',
  description: 'a successful login answers 201 Created (a session "created"), not 200',
  expectedCheck: 'status_code_conformance',
  include: ['login'],
  create: () => ({
    response: (res, req) =>
      isAuth(req, 'login') && res.status === 200 ? { ...res, status: 201 } : res,
  }),
};

export const tokenTypeLowerCase: Fault = {
  name: 'token-type-lower-case',
  description: 'the token answers say tokenType "bearer" (lower case), not "Bearer"',
  expectedCheck: 'response_schema_conformance',
  include: ['login'],
  create: () => ({
    response: (res, req) =>
      is2xx(res) && isTokenAnswer(req)
        ? editJson(res, (b) => (isObject(b) ? { ...b, tokenType: 'bearer' } : b))
        : res,
  }),
};

export const claimNameIsEmail: Fault = {
  name: 'claim-name-is-email',
  description: "the access token's name claim holds the user's email, not their name",
  expectedCheck: 'session_tokens',
  include: ['login', 'getUser', 'listUserRoles'],
  create: () =>
    editedClaims((c) => ({
      ...c,
      name: `${String(c.name ?? 'user')
        .toLowerCase()
        .replace(/\W+/g, '.')}@example.com`,
    })),
};

export const claimRoleAlwaysUser: Fault = {
  name: 'claim-role-always-user',
  description: "the access token's role claim is USER for everyone, the admin included",
  expectedCheck: 'session_tokens',
  include: ['login', 'getUser', 'listUserRoles'],
  create: () => editedClaims((c) => ({ ...c, role: 'USER' })),
};

export const claimExpMissing: Fault = {
  name: 'claim-exp-missing',
  description: 'the access token carries iat but no exp claim (the server tracks expiry itself)',
  expectedCheck: 'session_tokens',
  include: ['login', 'getUser', 'listUserRoles'],
  create: () =>
    editedClaims((c) => {
      const { exp: _exp, ...rest } = c;
      return rest;
    }),
};

export const expiresInMilliseconds: Fault = {
  name: 'expires-in-milliseconds',
  description:
    "the token answers give expiresIn in milliseconds (900000): an integer, but not the access token's lifetime in seconds",
  expectedCheck: 'session_tokens',
  include: ['login', 'getUser'],
  create: () => ({
    response: (res, req) =>
      is2xx(res) && isTokenAnswer(req)
        ? editJson(res, (b) =>
            isObject(b) && typeof b.expiresIn === 'number'
              ? { ...b, expiresIn: b.expiresIn * 1000 }
              : b,
          )
        : res,
  }),
};

export const refreshTokenShort: Fault = {
  name: 'refresh-token-short',
  description:
    'refresh tokens carry 64 random bits (11 base64url characters), not at least 256: guessable',
  expectedCheck: 'response_schema_conformance',
  include: ['login'],
  create: () => editedRefreshTokens(() => randomBytes(8).toString('base64url')),
};

export const refreshSameToken: Fault = {
  name: 'refresh-same-token',
  description:
    'a refresh hands back the refresh token it was given (no new one), though refresh tokens rotate',
  expectedCheck: 'refresh_rotation',
  include: ['auth'],
  create: () => {
    // The newest genuine token of each token a client holds, so the client's keeps working.
    const genuine = new Map<string, string>();
    return {
      request: (req) => {
        if (!isAuth(req, 'refresh') && !isAuth(req, 'logout')) return req;
        const body = parsed(req.body);
        if (!isObject(body) || typeof body.refreshToken !== 'string') return req;
        const original = genuine.get(body.refreshToken);
        return original
          ? { ...req, body: JSON.stringify({ ...body, refreshToken: original }) }
          : req;
      },
      response: (res, req) => {
        if (!isAuth(req, 'refresh') || res.status !== 200) return res;
        const sent = parsed(req.body);
        if (!isObject(sent) || typeof sent.refreshToken !== 'string') return res;
        const presented = sent.refreshToken;
        return editJson(res, (body) => {
          if (!isObject(body) || typeof body.refreshToken !== 'string') return body;
          genuine.set(presented, body.refreshToken);
          return { ...body, refreshToken: presented };
        });
      },
    };
  },
};

export const spentRefresh400: Fault = {
  name: 'spent-refresh-400',
  description: 'a spent, revoked or unknown refresh token is answered 400 (as bad input), not 401',
  expectedCheck: 'refresh_rotation',
  include: ['auth'],
  create: () => ({
    response: (res, req) =>
      isAuth(req, 'refresh') && res.status === 401
        ? problemAnswer(res, req, {
            kind: 'validation-failed',
            title: 'Request validation failed',
            status: 400,
            detail: 'the refresh token is not valid',
          })
        : res,
  }),
};

export const logoutAnswers200: Fault = {
  name: 'logout-answers-200',
  description: 'logout answers 200 with an empty JSON object, not 204 No Content',
  expectedCheck: 'status_code_conformance',
  include: ['logout'],
  create: () => ({
    response: (res, req) =>
      isAuth(req, 'logout') && res.status === 204
        ? {
            ...res,
            status: 200,
            headers: { ...res.headers, 'content-type': 'application/json; charset=utf-8' },
            body: '{}',
          }
        : res,
  }),
};

export const loginWithoutRefreshToken: Fault = {
  name: 'login-without-refresh-token',
  description: 'the login answer gives an access token only: no refreshToken',
  expectedCheck: 'response_schema_conformance',
  include: ['login'],
  create: () => ({
    response: (res, req) =>
      is2xx(res) && isAuth(req, 'login')
        ? editJson(res, (b) => {
            if (!isObject(b)) return b;
            const { refreshToken: _dropped, ...rest } = b;
            return rest;
          })
        : res,
  }),
};

const ADMIN_ACTION = /^\/api\/v1\/admin\/users\/(\d+)\/(block|unblock)$/;

export const blockedTokenNoInvalidToken: Fault = {
  name: 'blocked-token-no-invalid-token',
  description:
    'the 401 to the token of a user BLOCKED after issue challenges without error="invalid_token" (as if no token had been sent)',
  expectedCheck: 'session_revocation',
  include: [
    'login',
    'blockUser',
    'unblockUser',
    'refreshToken',
    'getUser',
    'listUserRoles',
    'activateUser',
  ],
  allowDestructive: true,
  create: () => {
    const blocked = new Set<string>();
    return {
      response: (res, req) => {
        const action = ADMIN_ACTION.exec(pathOf(req));
        if (req.method === 'POST' && action && is2xx(res)) {
          if (action[2] === 'block') blocked.add(action[1]!);
          else blocked.delete(action[1]!);
        }
        const sub = jwtClaims(bearer(req))?.sub;
        return res.status === 401 && sub !== undefined && blocked.has(String(sub))
          ? withChallenge(res, 'Bearer realm="api"')
          : res;
      },
    };
  },
};
