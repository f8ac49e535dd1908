/** Faults in sessions: what refresh tokens do after reuse, how /auth answers may be cached. */
import { API, editJson, is2xx, parsed, isObject, pathOf, type Json } from './fault-helpers.js';
import type { Fault } from './faults.js';

const refreshTokenOf = (body: string): string | undefined => {
  const json = parsed(body);
  return isObject(json) && typeof json.refreshToken === 'string' ? json.refreshToken : undefined;
};

export const refreshFamilyKept: Fault = {
  name: 'refresh-family-kept',
  description:
    'a spent refresh token is refused (rotation works), but its reuse does not revoke the family: the newest token of it still gives a new pair',
  expectedCheck: 'refresh_rotation',
  include: ['refreshToken', 'login'],
  create: () => {
    // The login body each refresh token descends from, and the tokens already presented.
    const account = new Map<string, string>();
    const spent = new Set<string>();
    return {
      request: async (req, ctx) => {
        const path = pathOf(req);
        if (req.method !== 'POST' || !path.startsWith(`${API}/auth/`)) return req;
        const res = await ctx.forward(req);
        const sent = refreshTokenOf(req.body);
        const issued = is2xx(res) ? refreshTokenOf(res.body) : undefined;
        if (path === `${API}/auth/login`) {
          if (issued) account.set(issued, req.body);
          return res;
        }
        if (sent === undefined) return res;
        const login = account.get(sent);
        if (path !== `${API}/auth/refresh` || !login) {
          spent.add(sent);
          return res;
        }
        if (issued) {
          spent.add(sent);
          account.set(issued, login);
          return res;
        }
        // Refused though never presented before: revoked with its family. Served anyway.
        if (res.status !== 401 || spent.has(sent)) return res;
        spent.add(sent);
        const fresh = await ctx.forward({ ...req, path: `${API}/auth/login`, body: login });
        const renewed = is2xx(fresh) ? refreshTokenOf(fresh.body) : undefined;
        if (renewed) account.set(renewed, login);
        return fresh;
      },
    };
  },
};

export const authAnswersNoCache: Fault = {
  name: 'auth-answers-no-cache',
  description:
    'POST /auth/login answers Cache-Control: no-cache (revalidate) instead of no-store, so a cache may keep the tokens',
  expectedCheck: 'response_headers_conformance',
  include: ['login'],
  // The login alone: refresh and logout have faults of their own (decision 0128).
  create: () => ({
    response: (res, req) =>
      is2xx(res) && pathOf(req) === `${API}/auth/login`
        ? { ...res, headers: { ...res.headers, 'cache-control': 'no-cache' } }
        : res,
  }),
};

/** The JOSE header of a bearer JWT, or undefined. */
function jwtHeader(authorization: string | undefined): Json | undefined {
  const token = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1];
  const head = token?.split('.')[0];
  if (!head) return undefined;
  const json = parsed(Buffer.from(head, 'base64url').toString('utf8'));
  return isObject(json) ? json : undefined;
}

export const algNoneAccepted: Fault = {
  name: 'alg-none-accepted',
  description:
    'an unsecured token (alg: none, no signature) is trusted: the request is served, not 401',
  expectedCheck: 'ignored_auth',
  include: ['getUser'],
  create: () => ({
    request: async (req, ctx) =>
      String(jwtHeader(req.headers.authorization)?.alg).toLowerCase() === 'none'
        ? { ...req, headers: { ...req.headers, authorization: await ctx.adminAuthorization() } }
        : req,
  }),
};

/** Edits the JSON body of the 200 answers of the /auth path `path`. */
const tokenAnswer =
  (path: string, edit: (body: Json) => Json): Fault['create'] =>
  () => ({
    response: (res, req) =>
      res.status === 200 && pathOf(req) === `${API}/auth/${path}`
        ? editJson(res, (body) => (isObject(body) ? edit(body) : body))
        : res,
  });

export const loginWithoutTokenType: Fault = {
  name: 'login-without-token-type',
  description: 'the login answer leaves out tokenType',
  expectedCheck: 'response_schema_conformance',
  include: ['login'],
  create: tokenAnswer('login', ({ tokenType: _gone, ...rest }) => rest),
};

export const refreshOtherShape: Fault = {
  name: 'refresh-other-shape',
  description: 'refresh answers {token, refreshToken} (its own shape), not the shape of login',
  expectedCheck: 'response_schema_conformance',
  include: ['refreshToken', 'login'],
  create: tokenAnswer('refresh', ({ accessToken, refreshToken }) => ({
    token: accessToken,
    refreshToken,
  })),
};

export const expiresInString: Fault = {
  name: 'expires-in-string',
  description: 'the login answer gives expiresIn as a string ("900"), not integer seconds',
  expectedCheck: 'response_schema_conformance',
  include: ['login'],
  create: tokenAnswer('login', (body) => ({ ...body, expiresIn: String(body.expiresIn) })),
};

/** A JSON object body without username or password. */
function lacksField(body: string): boolean {
  const json = parsed(body);
  return isObject(json) && !('username' in json && 'password' in json);
}

export const loginMissingFields422: Fault = {
  name: 'login-missing-fields-422',
  description: 'a login body without username or password is 422, not 400',
  expectedCheck: 'negative_data_rejection',
  include: ['login'],
  create: () => ({
    response: (res, req) =>
      res.status === 400 && pathOf(req) === `${API}/auth/login` && lacksField(req.body)
        ? editJson({ ...res, status: 422 }, (problem) => ({ ...(problem as Json), status: 422 }))
        : res,
  }),
};
