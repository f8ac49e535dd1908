/**
 * Faults that break one clause of a rule once written as one row (decision 0128): each route
 * of /auth on its own, each notation of a lenient query integer, each validator of a PUT, each
 * step after the ADMIN guard, an empty PATCH that writes, an order PUT refusing read-only
 * fields.
 */
import { laterFailureWins } from './check-order-faults.js';
import { omit, type FaultHooks, type ProxyRequest } from './fault-proxy.js';
import {
  API,
  is2xx,
  isObject,
  parsed,
  pathOf,
  problemAnswer,
  USER_PATH,
  userPut2xx,
} from './fault-helpers.js';
import type { Fault } from './faults.js';

/** A 2xx of the /auth route `route` says Cache-Control: no-cache instead of no-store. */
const noCacheOn = (route: string): FaultHooks => ({
  response: (res, req) =>
    is2xx(res) && pathOf(req) === `${API}/auth/${route}`
      ? { ...res, headers: { ...res.headers, 'cache-control': 'no-cache' } }
      : res,
});

export const refreshAnswersNoCache: Fault = {
  name: 'refresh-answers-no-cache',
  description:
    'POST /auth/refresh answers Cache-Control: no-cache (revalidate) instead of no-store, so a cache may keep the rotated tokens',
  expectedCheck: 'response_headers_conformance',
  include: ['login', 'refreshToken'],
  create: () => noCacheOn('refresh'),
};

export const logoutAnswersNoCache: Fault = {
  name: 'logout-answers-no-cache',
  description: 'POST /auth/logout answers its 204 with Cache-Control: no-cache, not no-store',
  expectedCheck: 'response_headers_conformance',
  include: ['login', 'logout'],
  create: () => noCacheOn('logout'),
};

export const putAnswersLastModified: Fault = {
  name: 'put-answers-last-modified',
  description:
    "a PUT's 200 carries Last-Modified (no ETag), though the stored user is not what was sent (RFC 9110 9.3.4)",
  expectedCheck: 'put_validators',
  include: ['users'],
  create: () => ({
    response: (res, req) =>
      userPut2xx(res, req)
        ? {
            ...res,
            headers: { ...omit(res.headers, 'etag'), 'last-modified': new Date().toUTCString() },
          }
        : res,
  }),
};

/**
 * GET /users reads page and size leniently where `lenient` matches their raw text: the value
 * is forwarded as the plain integer Number() makes of it.
 */
function lenientListIntegers(lenient: RegExp): FaultHooks {
  return {
    request: (req: ProxyRequest) => {
      if (req.method !== 'GET' || pathOf(req) !== `${API}/users`) return req;
      const url = new URL(req.path, 'http://proxy');
      for (const name of ['page', 'size']) {
        const raw = url.searchParams.get(name);
        const n = Number(raw);
        if (raw !== null && lenient.test(raw) && Number.isSafeInteger(n) && n >= 0)
          url.searchParams.set(name, String(n));
      }
      return { ...req, path: url.pathname + url.search };
    },
  };
}

export const queryIntegerSignAccepted: Fault = {
  name: 'query-integer-sign-accepted',
  description: 'GET /users takes page=+5 and size=+20 as 5 and 20 (a sign), not 400',
  expectedCheck: 'negative_data_rejection',
  include: ['listUsers'],
  create: () => lenientListIntegers(/^\+\d+$/),
};

export const queryIntegerExponentAccepted: Fault = {
  name: 'query-integer-exponent-accepted',
  description: 'GET /users takes size=2e1 as 20 (an exponent), not 400',
  expectedCheck: 'negative_data_rejection',
  include: ['listUsers'],
  create: () => lenientListIntegers(/^\d+e\d+$/i),
};

export const queryIntegerFractionAccepted: Fault = {
  name: 'query-integer-fraction-accepted',
  description: 'GET /users takes size=20.0 as 20 (a fraction of zero), not 400',
  expectedCheck: 'negative_data_rejection',
  include: ['listUsers'],
  create: () => lenientListIntegers(/^\d+\.0+$/),
};

/** The request again as the admin: the ADMIN guard is passed, the later check answers. */
const asAdmin = async (
  req: ProxyRequest,
  ctx: { adminAuthorization(): Promise<string> },
): Promise<ProxyRequest> => ({
  ...req,
  headers: { ...req.headers, authorization: await ctx.adminAuthorization() },
});

/** Over the contract's body limit of 100 KiB. */
const OVER_LIMIT = 100 * 1024;

export const sizeBeforeRole: Fault = {
  name: 'size-before-role',
  description:
    'the body limit is enforced before the ADMIN guard: a USER sending an oversized body to an ADMIN operation gets 413',
  expectedCheck: 'check_order',
  include: ['admin', 'createUser'],
  create: laterFailureWins(403, asAdmin, (req) => req.body.length > OVER_LIMIT),
};

export const mediaTypeBeforeRole: Fault = {
  name: 'media-type-before-role',
  description:
    'the media type is checked before the ADMIN guard: a USER sending text/plain to an ADMIN operation gets 415',
  expectedCheck: 'check_order',
  include: ['admin', 'createUser'],
  create: laterFailureWins(
    403,
    asAdmin,
    (req) => req.body.length > 0 && !/json/i.test(req.headers['content-type'] ?? ''),
  ),
};

export const emptyPatchClearsAge: Fault = {
  name: 'empty-patch-clears-age',
  description:
    'PATCH /users/{id} with {} is 200 but writes defaults: age is cleared (a write where nothing was asked)',
  expectedCheck: 'patch_semantics',
  include: ['createUser', 'getUser', 'updateUser'],
  create: () => ({
    request: (req) => {
      const body = parsed(req.body);
      if (req.method !== 'PATCH' || !USER_PATH.test(pathOf(req))) return req;
      if (!isObject(body) || Object.keys(body).length > 0) return req;
      return { ...req, body: JSON.stringify({ age: null }) };
    },
  }),
};

const USER_ORDER = /^\/api\/v1\/users\/\d+\/orders\/\d+$/;
const ORDER_READ_ONLY = ['id', 'userId', 'status', 'createdAt', 'updatedAt'];

export const orderPutReadOnly400: Fault = {
  name: 'order-put-read-only-400',
  description:
    'PUT /users/{id}/orders/{orderId} with read-only fields (userId, status, ...) in the body is 400, not ignored',
  expectedCheck: 'read_only_ignored',
  include: ['createUser', 'createUserOrder', 'getUserOrder', 'replaceUserOrder'],
  create: () => ({
    request: (req) => {
      const body = parsed(req.body);
      const sent = isObject(body) ? ORDER_READ_ONLY.filter((k) => k in body) : [];
      if (req.method !== 'PUT' || !USER_ORDER.test(pathOf(req)) || sent.length === 0) return req;
      return problemAnswer({ status: 400, headers: {}, body: '' }, req, {
        kind: 'validation-failed',
        title: 'Request validation failed',
        status: 400,
        detail: `Read-only properties may not be sent: ${sent.join(', ')}.`,
      });
    },
  }),
};

/** The tag `etag` once more writes are counted against it: `"abc"` -> `"abc-2"`. */
const bumped = (etag: string, writes: number) => etag.replace(/"$/, `-${writes}"`);

export const emptyPatchNewEtag: Fault = {
  name: 'empty-patch-new-etag',
  description:
    'PATCH /users/{id} with {} changes nothing but counts a write: the user is read back with a new ETag',
  expectedCheck: 'patch_semantics',
  include: ['createUser', 'getUser', 'updateUser'],
  create: () => {
    const writes = new Map<string, number>();
    return {
      response: (res, req) => {
        const path = pathOf(req);
        if (!USER_PATH.test(path)) return res;
        const body = parsed(req.body);
        if (req.method === 'PATCH' && is2xx(res) && isObject(body) && !Object.keys(body).length)
          writes.set(path, (writes.get(path) ?? 0) + 1);
        const count = writes.get(path);
        const etag = res.headers['etag'];
        return count && etag && is2xx(res)
          ? { ...res, headers: { ...res.headers, etag: bumped(etag, count) } }
          : res;
      },
    };
  },
};
