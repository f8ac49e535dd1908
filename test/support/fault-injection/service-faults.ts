/** Faults around the operations (x-apikit-service): served routes, request ids, RateLimit, CORS, writes. */
import { randomUUID } from 'node:crypto';
import type { FaultHooks, ProxyRequest, ProxyResponse } from './fault-proxy.js';
import {
  API,
  USER_PATH,
  editJson,
  isObject,
  parsed,
  pathOf,
  problemAnswer,
} from './fault-helpers.js';
import type { Fault } from './faults.js';

export const servedRouteNeedsToken: Fault = {
  name: 'served-route-needs-token',
  description: 'GET /healthz without a token is 401, as if it were an operation of the API',
  expectedCheck: 'open_routes',
  include: ['getUser'],
  create: () => ({
    response: (res, req) => {
      if (pathOf(req) !== '/healthz' || req.headers.authorization) return res;
      const refused = problemAnswer(res, req, {
        kind: 'unauthenticated',
        title: 'Authentication required',
        status: 401,
        detail: 'This operation needs an access token',
      });
      return {
        ...refused,
        headers: { ...refused.headers, 'www-authenticate': 'Bearer realm="api"' },
      };
    },
  }),
};

export const servedContractStale: Fault = {
  name: 'served-contract-stale',
  description:
    'GET /openapi.json serves a stale contract: the last path of the spec is missing (a document built before it was added)',
  expectedCheck: 'served_documents',
  include: ['getUser'],
  create: () => ({
    response: (res, req) =>
      pathOf(req) === '/openapi.json' && res.status === 200
        ? editJson(res, (doc) => {
            if (!isObject(doc) || !isObject(doc['paths'])) return doc;
            const paths = { ...doc['paths'] };
            delete paths[Object.keys(paths).at(-1)!];
            return { ...doc, paths };
          })
        : res,
  }),
};

export const requestIdNotEchoed: Fault = {
  name: 'request-id-not-echoed',
  description:
    "X-Request-Id is always generated: a client's own id is replaced, so its logs and the server's cannot be joined",
  expectedCheck: 'request_id_echo',
  include: ['getUser'],
  create: () => ({
    response: (res, req) =>
      req.headers['x-request-id']
        ? { ...res, headers: { ...res.headers, 'x-request-id': randomUUID() } }
        : res,
  }),
};

export const rateLimitMalformed: Fault = {
  name: 'rate-limit-malformed',
  description:
    'answers of the API carry RateLimit: remaining 999 (not a structured field) and no RateLimit-Policy',
  expectedCheck: 'rate_limit_headers',
  include: ['getUser'],
  create: () => ({
    response: (res, req) =>
      pathOf(req).startsWith(API) && req.method !== 'OPTIONS'
        ? { ...res, headers: { ...res.headers, ratelimit: 'remaining 999' } }
        : res,
  }),
};

export const corsExposesNoEtag: Fault = {
  name: 'cors-exposes-no-etag',
  description:
    'cross-origin answers do not expose ETag (Access-Control-Expose-Headers lacks it): a browser app cannot send If-Match',
  expectedCheck: 'cors_headers',
  include: ['getUser'],
  create: () => ({
    response: (res) => {
      const exposed = res.headers['access-control-expose-headers'];
      if (exposed === undefined) return res;
      const kept = exposed
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.toLowerCase() !== 'etag');
      return {
        ...res,
        headers: { ...res.headers, 'access-control-expose-headers': kept.join(', ') },
      };
    },
  }),
};

/** The user's writable properties a PATCH written back from a stale read would carry. */
const WRITTEN_BACK = ['name', 'email', 'age'];

/**
 * PATCH of a user as read-modify-write without a lock: the proxy reads the user, waits a little
 * (the time an ORM takes), then sends the patch together with every other property as it read
 * it; a PATCH sent meanwhile is overwritten with the stale values.
 */
function lostUpdates(): FaultHooks {
  return {
    async request(req: ProxyRequest, ctx): Promise<ProxyRequest | ProxyResponse> {
      if (req.method !== 'PATCH' || !USER_PATH.test(pathOf(req))) return req;
      const patch = parsed(req.body);
      if (!isObject(patch)) return req;
      const read = await ctx.forward({
        method: 'GET',
        path: req.path,
        headers: { accept: 'application/json', authorization: req.headers.authorization ?? '' },
        body: '',
      });
      const current = read.status === 200 ? parsed(read.body) : undefined;
      if (!isObject(current)) return req;
      await new Promise((resolve) => setTimeout(resolve, 40));
      const stale = Object.fromEntries(
        WRITTEN_BACK.filter((k) => current[k] !== undefined && current[k] !== null).map((k) => [
          k,
          current[k],
        ]),
      );
      return { ...req, body: JSON.stringify({ ...stale, ...patch }) };
    },
  };
}

export const patchLostUpdate: Fault = {
  name: 'patch-lost-update',
  description:
    'PATCH of a user is a read-modify-write without a lock: PATCHes of different properties sent at once overwrite each other with stale values',
  expectedCheck: 'serialized_writes',
  include: ['updateUser', 'createUser', 'getUser'],
  create: lostUpdates,
};

const LOGIN = `${API}/auth/login`;
const LOGIN_QUOTA = 5;
/** A short window, so that the run's own pacing waits at most that long for the login budget. */
export const WINDOW_MS = 2000;

/**
 * A login limiter of the broken target's own (the reference server behind the proxy runs with
 * limits off): every login answer reports a "login" budget of five failed attempts per
 * two-second window; once they are spent, `over` answers the next attempt.
 */
export function loginLimiter(
  over: (res: ProxyResponse, req: ProxyRequest) => ProxyResponse,
): FaultHooks {
  let failed = 0;
  let windowEnds = 0;
  return {
    response: (res, req) => {
      if (req.method !== 'POST' || pathOf(req) !== LOGIN) return res;
      const now = Date.now();
      if (now >= windowEnds) [failed, windowEnds] = [0, now + WINDOW_MS];
      if (res.status === 401) failed++;
      const left = Math.max(0, LOGIN_QUOTA - failed);
      const reset = Math.ceil((windowEnds - now) / 1000);
      const headers = {
        ...res.headers,
        ratelimit: `"login";r=${left};t=${reset}`,
        'ratelimit-policy': `"login";q=${LOGIN_QUOTA};w=${WINDOW_MS / 1000}`,
      };
      return failed > LOGIN_QUOTA ? over({ ...res, headers }, req) : { ...res, headers };
    },
  };
}

export const login429WithoutRetryAfter: Fault = {
  name: 'login-429-without-retry-after',
  description:
    'the login limiter answers 429 without Retry-After: a client cannot tell when to try again',
  expectedCheck: 'rate_limit_exceeded',
  include: ['getUser', 'login'],
  provokeRateLimits: true,
  create: () =>
    loginLimiter((res, req) =>
      problemAnswer(res, req, {
        kind: 'rate-limited',
        title: 'Too many requests',
        status: 429,
        detail: 'Rate limit exceeded',
      }),
    ),
};

export const loginLimitNotEnforced: Fault = {
  name: 'login-limit-not-enforced',
  description:
    'the login budget is reported (RateLimit r=0) but never enforced: password guessing goes on unthrottled',
  expectedCheck: 'rate_limit_exceeded',
  include: ['getUser', 'login'],
  provokeRateLimits: true,
  create: () => loginLimiter((res) => res),
};

export const resetIgnored: Fault = {
  name: 'reset-ignored',
  description:
    'POST /admin/reset answers 204 and does nothing (a stub): what was made stays, refresh tokens keep working',
  expectedCheck: 'admin_reset',
  include: ['getUser', 'createUser', 'login', 'resetData'],
  allowDestructive: true,
  create: () => ({
    request: (req) =>
      req.method === 'POST' && pathOf(req) === `${API}/admin/reset`
        ? {
            status: 204,
            headers: { 'x-request-id': randomUUID(), 'cache-control': 'no-store' },
            body: '',
          }
        : req,
  }),
};

/** The `sub` of a bearer JWT, unverified. */
function subjectOfBearer(authorization: string | undefined): string | undefined {
  const payload = authorization?.match(/^Bearer [^.]+\.([^.]+)\./)?.[1];
  if (!payload) return undefined;
  const claims = parsed(Buffer.from(payload, 'base64url').toString('utf8'));
  return isObject(claims) && claims.sub !== undefined ? String(claims.sub) : undefined;
}

export const deletedUserTokenAccepted: Fault = {
  name: 'deleted-user-token-accepted',
  description:
    'the token of a deleted user still works (only its signature and expiry are checked, not that its subject exists)',
  expectedCheck: 'deleted_user_token',
  include: ['getUser', 'resetData', 'login', 'deleteUser'],
  allowDestructive: true,
  create: () => {
    const deleted = new Set<string>();
    return {
      async request(req, ctx) {
        if (req.method === 'POST' && pathOf(req) === `${API}/admin/reset`) deleted.clear();
        const sub = subjectOfBearer(req.headers.authorization);
        if (sub === undefined || !deleted.has(sub)) return req;
        // The server would refuse it: the broken target answers as if the user still existed.
        return {
          ...req,
          headers: { ...req.headers, authorization: await ctx.adminAuthorization() },
        };
      },
      response(res, req) {
        const id = USER_PATH.test(pathOf(req)) ? pathOf(req).split('/').at(-1) : undefined;
        if (req.method === 'DELETE' && id && res.status === 204) deleted.add(id);
        return res;
      },
    };
  },
};
