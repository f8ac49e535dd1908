/**
 * Faults in what tokens mean (decision 0082): claims, logins, logout, bearer errors, and what
 * blocking and unblocking do to a user's tokens. Caught by session_tokens and (with
 * --allow-destructive) session_revocation.
 */
import { randomBytes } from 'node:crypto';
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
import { omit, type ProxyRequest, type ProxyResponse } from './fault-proxy.js';
import type { Fault } from './faults.js';

const KNOWN_ACCOUNTS = ['user@example.com', 'admin@example.com'];
/** What session_revocation needs in scope: the session, the suspension and the reads it makes. */
const SUSPENSION_SCOPE = [
  'login',
  'blockUser',
  'unblockUser',
  'refreshToken',
  'getUser',
  'listUserRoles',
  'activateUser',
];
const bodyOf = (req: ProxyRequest): Json => {
  const json = parsed(req.body);
  return isObject(json) ? json : {};
};
const bearer = (req: ProxyRequest) => /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
const subOf = (token: string | undefined) => {
  const sub = jwtClaims(token)?.sub;
  return sub === undefined ? undefined : String(sub);
};
const isLogin = (req: ProxyRequest) => req.method === 'POST' && pathOf(req) === `${API}/auth/login`;
const isAuth = (req: ProxyRequest, name: string) =>
  req.method === 'POST' && pathOf(req) === `${API}/auth/${name}`;
const ADMIN_ACTION = /^\/api\/v1\/admin\/users\/(\d+)\/(block|unblock)$/;

export const tokenSubNumber: Fault = {
  name: 'token-sub-number',
  description: 'the access token carries sub as a number (the user id), not as a string',
  expectedCheck: 'session_tokens',
  include: ['login', 'getUser'],
  create: () => {
    // Tokens handed out with the changed claims, and the genuine ones they stand for.
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
        if (!is2xx(res) || !(isLogin(req) || isAuth(req, 'refresh'))) return res;
        return editJson(res, (body) => {
          if (!isObject(body) || typeof body.accessToken !== 'string') return body;
          const claims = jwtClaims(body.accessToken) ?? {};
          const changed = signHs256(
            { ...claims, sub: Number(claims.sub) },
            Buffer.from(TEST_JWT_SECRET),
          );
          genuine.set(changed, body.accessToken);
          return { ...body, accessToken: changed };
        });
      },
    };
  },
};

export const wrongPassword400: Fault = {
  name: 'wrong-password-400',
  description:
    'a known username with a wrong password is 400 (it tells the account exists), not 401',
  expectedCheck: 'session_tokens',
  include: ['login'],
  create: () => ({
    response: (res, req) =>
      isLogin(req) && res.status === 401 && KNOWN_ACCOUNTS.includes(String(bodyOf(req).username))
        ? editJson(
            { ...res, status: 400, headers: omit(res.headers, 'www-authenticate') },
            (p) => ({
              ...(p as Json),
              status: 400,
              errors: [],
            }),
          )
        : res,
  }),
};

export const usernameCaseSensitive: Fault = {
  name: 'username-case-sensitive',
  description: 'the username is compared exactly: USER@EXAMPLE.COM is refused (401)',
  expectedCheck: 'session_tokens',
  include: ['login'],
  create: () => ({
    request: (req) => {
      const { username, password } = bodyOf(req);
      if (!isLogin(req) || typeof username !== 'string' || username === username.toLowerCase())
        return req;
      return {
        ...req,
        body: JSON.stringify({ username, password: `${String(password)}-mismatch` }),
      };
    },
  }),
};

/** A genuine 204 of logout, for a token the target never issued. */
const unknownLogout = (req: ProxyRequest): ProxyRequest => ({
  ...req,
  body: JSON.stringify({ refreshToken: randomBytes(32).toString('base64url') }),
});

export const logoutKeepsToken: Fault = {
  name: 'logout-keeps-token',
  description: 'logout answers 204 but revokes nothing: the refresh token still renews',
  expectedCheck: 'session_tokens',
  include: ['logout', 'login', 'refreshToken', 'getUser'],
  create: () => ({ request: (req) => (isAuth(req, 'logout') ? unknownLogout(req) : req) }),
};

export const logoutUnknown400: Fault = {
  name: 'logout-unknown-400',
  description: 'logout of a refresh token the target never issued is 400, not 204',
  expectedCheck: 'session_tokens',
  include: ['logout'],
  create: () => {
    const issued = new Set<string>();
    return {
      request: (req) => {
        const token = bodyOf(req).refreshToken;
        if (!isAuth(req, 'logout') || typeof token !== 'string' || issued.has(token)) return req;
        return { ...req, body: '{}' };
      },
      response: (res, req) => {
        const token =
          is2xx(res) && pathOf(req).startsWith(`${API}/auth/`) ? parsed(res.body) : undefined;
        if (isObject(token) && typeof token.refreshToken === 'string')
          issued.add(token.refreshToken);
        return res;
      },
    };
  },
};

export const refreshNamesInvalidToken: Fault = {
  name: 'refresh-names-invalid-token',
  description:
    'a refused refresh token (sent in the body, no bearer token) gets WWW-Authenticate with error="invalid_token"',
  expectedCheck: 'session_tokens',
  include: ['refreshToken'],
  create: () => ({
    response: (res, req) =>
      isAuth(req, 'refresh') && res.status === 401
        ? {
            ...res,
            headers: {
              ...res.headers,
              'www-authenticate': 'Bearer realm="api", error="invalid_token"',
            },
          }
        : res,
  }),
};

export const tokenTwoWaysAccepted: Fault = {
  name: 'token-two-ways-accepted',
  description:
    'a token both in Authorization and as access_token is served (the query copy ignored), not 400',
  expectedCheck: 'session_tokens',
  include: ['listUsers'],
  create: () => ({
    request: (req) => {
      const url = new URL(req.path, 'http://proxy');
      if (!req.headers.authorization || !url.searchParams.has('access_token')) return req;
      url.searchParams.delete('access_token');
      return { ...req, path: url.pathname + url.search };
    },
  }),
};

/** The ids blocked through the admin actions, kept current by watching them. */
function watchBlocks(blocked: Set<string>, onBlock?: (id: string) => void) {
  return (res: ProxyResponse, req: ProxyRequest) => {
    const action = ADMIN_ACTION.exec(pathOf(req));
    if (req.method === 'POST' && action && is2xx(res)) {
      if (action[2] === 'block') {
        blocked.add(action[1]!);
        onBlock?.(action[1]!);
      } else blocked.delete(action[1]!);
    }
    return res;
  };
}

export const blockedTokenAccepted: Fault = {
  name: 'blocked-token-accepted',
  description:
    "a BLOCKED user's access token still works (the subject's status is not read per request)",
  expectedCheck: 'session_revocation',
  include: SUSPENSION_SCOPE,
  allowDestructive: true,
  create: () => {
    const blocked = new Set<string>();
    return {
      request: async (req, ctx) => {
        const sub = subOf(bearer(req));
        return sub && blocked.has(sub) && !pathOf(req).startsWith(`${API}/admin/`)
          ? { ...req, headers: { ...req.headers, authorization: await ctx.adminAuthorization() } }
          : req;
      },
      response: watchBlocks(blocked),
    };
  },
};

export const blockedLogin401: Fault = {
  name: 'blocked-login-401',
  description: 'a BLOCKED user logging in with the right password gets 401, not 403',
  expectedCheck: 'session_revocation',
  include: SUSPENSION_SCOPE,
  allowDestructive: true,
  create: () => ({
    response: (res, req) =>
      isLogin(req) && res.status === 403
        ? editJson(
            {
              ...res,
              status: 401,
              headers: { ...res.headers, 'www-authenticate': 'Bearer realm="api"' },
            },
            (p) => ({ ...(p as Json), status: 401 }),
          )
        : res,
  }),
};

export const blockedRefreshRenews: Fault = {
  name: 'blocked-refresh-renews',
  description: "a BLOCKED user's refresh token still gives a new pair",
  expectedCheck: 'session_revocation',
  include: SUSPENSION_SCOPE,
  allowDestructive: true,
  create: () => {
    const blocked = new Set<string>();
    const owner = new Map<string, string>();
    const watch = watchBlocks(blocked);
    return {
      response: async (res, req, ctx) => {
        watch(res, req);
        const body = parsed(res.body);
        if (is2xx(res) && isObject(body) && typeof body.refreshToken === 'string')
          owner.set(body.refreshToken, subOf(String(body.accessToken)) ?? '');
        const sent = String(bodyOf(req).refreshToken);
        if (!isAuth(req, 'refresh') || res.status !== 401 || !blocked.has(owner.get(sent) ?? ''))
          return res;
        const access = (await ctx.adminAuthorization()).replace(/^Bearer /, '');
        return {
          status: 200,
          headers: {
            ...omit(res.headers, 'www-authenticate'),
            'content-type': 'application/json; charset=utf-8',
          },
          body: JSON.stringify({
            accessToken: access,
            refreshToken: randomBytes(32).toString('base64url'),
            tokenType: 'Bearer',
            expiresIn: 900,
          }),
        };
      },
    };
  },
};

export const unblockKeepsTokensRefused: Fault = {
  name: 'unblock-keeps-tokens-refused',
  description: 'access tokens issued before a block stay refused after the unblock',
  expectedCheck: 'session_revocation',
  include: SUSPENSION_SCOPE,
  allowDestructive: true,
  create: () => {
    const issued = new Map<string, Set<string>>();
    const revoked = new Set<string>();
    const watch = watchBlocks(new Set(), (id) => issued.get(id)?.forEach((t) => revoked.add(t)));
    return {
      request: (req) => {
        const token = bearer(req);
        return token && revoked.has(token)
          ? { ...req, headers: { ...req.headers, authorization: 'Bearer revoked.for.good' } }
          : req;
      },
      response: (res, req) => {
        watch(res, req);
        const body = parsed(res.body);
        if (is2xx(res) && isObject(body) && typeof body.accessToken === 'string') {
          const sub = subOf(body.accessToken) ?? '';
          issued.set(sub, (issued.get(sub) ?? new Set()).add(body.accessToken));
        }
        return res;
      },
    };
  },
};

export const inactiveLoginRefused: Fault = {
  name: 'inactive-login-refused',
  description: 'an INACTIVE user cannot log in (403), though only BLOCKED users are refused',
  expectedCheck: 'session_revocation',
  include: SUSPENSION_SCOPE,
  allowDestructive: true,
  create: () => ({
    response: async (res, req, ctx) => {
      const body = parsed(res.body);
      if (!isLogin(req) || !is2xx(res) || !isObject(body)) return res;
      const id = subOf(String(body.accessToken));
      const user = await ctx.forward({
        method: 'GET',
        path: `${API}/users/${id}`,
        headers: { accept: 'application/json', authorization: await ctx.adminAuthorization() },
        body: '',
      });
      const status = isObject(parsed(user.body)) ? (parsed(user.body) as Json).status : undefined;
      return status === 'INACTIVE'
        ? problemAnswer(res, req, {
            kind: 'user-blocked',
            title: 'Forbidden',
            status: 403,
            detail: 'The account is not active',
          })
        : res;
    },
  }),
};
