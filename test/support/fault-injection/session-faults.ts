/** Faults in sessions: what refresh tokens do after reuse, how /auth answers may be cached. */
import { API, is2xx, parsed, isObject, pathOf } from './fault-helpers.js';
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
  include: ['refreshToken'],
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
    'the token answers of /auth say Cache-Control: no-cache (revalidate) instead of no-store, so a cache may keep the tokens',
  expectedCheck: 'response_headers_conformance',
  include: ['login', 'refreshToken'],
  create: () => ({
    response: (res, req) =>
      is2xx(res) && pathOf(req).startsWith(`${API}/auth/`)
        ? { ...res, headers: { ...res.headers, 'cache-control': 'no-cache' } }
        : res,
  }),
};
