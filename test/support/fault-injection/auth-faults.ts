/** Faults in authentication and authorisation: tokens, roles, refresh rotation. */
import {
  API,
  editJson,
  isObject,
  parsed,
  pathOf,
  problemAnswer,
  type Json,
} from './fault-helpers.js';
import type { Fault } from './faults.js';

export const authNotEnforced: Fault = {
  name: 'auth-not-enforced',
  description: 'a request without a token is served as the admin (a default identity)',
  expectedCheck: 'ignored_auth',
  include: ['users'],
  create: () => ({
    request: async (req, ctx) =>
      req.headers.authorization ||
      req.method === 'OPTIONS' ||
      pathOf(req).startsWith(`${API}/auth/`)
        ? req
        : { ...req, headers: { ...req.headers, authorization: await ctx.adminAuthorization() } },
  }),
};

export const roleNotEnforced: Fault = {
  name: 'role-not-enforced',
  description: '/admin/** serves a USER token as if it held ADMIN',
  expectedCheck: 'admin_role_required',
  include: ['admin', 'users'],
  create: () => ({
    request: async (req, ctx) => {
      if (!pathOf(req).startsWith(`${API}/admin/`)) return req;
      const res = await ctx.forward(req);
      if (res.status !== 403) return res;
      return ctx.forward({
        ...req,
        headers: { ...req.headers, authorization: await ctx.adminAuthorization() },
      });
    },
  }),
};

export const refreshReuseAllowed: Fault = {
  name: 'refresh-reuse-allowed',
  description: 'a spent refresh token still works (no rotation, no reuse detection)',
  expectedCheck: 'refresh_rotation',
  include: ['auth'],
  create: () => {
    // The account each refresh token belongs to, learned from the logins and refreshes.
    const account = new Map<string, string>();
    return {
      request: async (req, ctx) => {
        if (req.method !== 'POST') return req;
        const path = pathOf(req);
        const res = await ctx.forward(req);
        if (res.status !== 200 && !(path === `${API}/auth/refresh` && res.status === 401))
          return res;
        let sent: Json;
        try {
          sent = JSON.parse(req.body) as Json;
        } catch {
          return res;
        }
        if (path === `${API}/auth/login` && res.status === 200)
          account.set(String((JSON.parse(res.body) as Json).refreshToken), req.body);
        if (path !== `${API}/auth/refresh`) return res;
        const login = account.get(String(sent.refreshToken));
        if (res.status === 200) {
          if (login) account.set(String((JSON.parse(res.body) as Json).refreshToken), login);
          return res;
        }
        if (!login) return res;
        // Reuse of a known token: served a fresh pair as if it were still valid.
        const fresh = await ctx.forward({ ...req, path: `${API}/auth/login`, body: login });
        if (fresh.status === 200)
          account.set(String((JSON.parse(fresh.body) as Json).refreshToken), login);
        return fresh;
      },
    };
  },
};

/** The demo accounts the runner logs in with; any other refused login is "no such user". */
const KNOWN_ACCOUNTS = new Set(['admin@example.com', 'user@example.com']);

export const loginUnknownUser400: Fault = {
  name: 'login-unknown-user-400',
  description:
    'POST /auth/login with an email no user has is refused as invalid input (400, "#/username: no user has this email", telling who has an account) instead of 401 invalid-credentials',
  expectedCheck: 'request_examples',
  include: ['login'],
  create: () => ({
    response: (res, req) => {
      if (pathOf(req) !== `${API}/auth/login` || res.status !== 401) return res;
      const sent = parsed(req.body);
      const username = isObject(sent) ? String(sent.username).toLowerCase() : '';
      if (KNOWN_ACCOUNTS.has(username)) return res;
      const refused = problemAnswer(res, req, {
        kind: 'validation-failed',
        title: 'Request validation failed',
        status: 400,
        detail: 'The request body is invalid.',
      });
      return editJson(refused, (problem) => ({
        ...(problem as Json),
        errors: [{ pointer: '#/username', detail: 'no user has this email' }],
      }));
    },
  }),
};
