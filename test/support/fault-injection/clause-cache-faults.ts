/**
 * Faults that each break one clause of a caching or conditional-request rule (validators per
 * method, Cache-Control per kind of answer, Vary, the headers of a 304, conditional reads).
 */
import { omit, type FaultHooks, type ProxyRequest, type ProxyResponse } from './fault-proxy.js';
import {
  API,
  USER_PATH,
  editHeaders,
  pathOf,
  preconditionFailed,
  readBack,
  userRead200,
} from './fault-helpers.js';
import type { Fault } from './faults.js';

export const varyWithoutAuthorization: Fault = {
  name: 'vary-without-authorization',
  description:
    'GET of a user carries Vary: Accept only: a shared cache may serve one caller the answer made for another token',
  expectedCheck: 'response_headers_conformance',
  include: ['getUser'],
  create: () => editHeaders(userRead200, (h) => ({ ...h, vary: 'Accept' })),
};

export const varyWithoutAccept: Fault = {
  name: 'vary-without-accept',
  description:
    'GET of a user carries Vary: Authorization only (the Accept it was negotiated on is left out)',
  expectedCheck: 'response_headers_conformance',
  include: ['getUser'],
  create: () => editHeaders(userRead200, (h) => ({ ...h, vary: 'Authorization' })),
};

export const resourceCachePublic: Fault = {
  name: 'resource-cache-public',
  description:
    'GET of a user answers Cache-Control: public, max-age=60 (a shared cache may keep a private representation)',
  expectedCheck: 'response_headers_conformance',
  include: ['getUser'],
  create: () => editHeaders(userRead200, (h) => ({ ...h, 'cache-control': 'public, max-age=60' })),
};

export const catalogNoCache: Fault = {
  name: 'catalog-no-cache',
  description:
    'the fixed catalogs answer the resource policy Cache-Control: private, no-cache, not private, max-age=3600',
  expectedCheck: 'response_headers_conformance',
  include: ['listCategories', 'getCategory', 'listRoles'],
  create: () =>
    editHeaders(
      (res, req) =>
        res.status === 200 && /^\/api\/v1\/(roles|categories(\/\d+)?)$/.test(pathOf(req)),
      (h) => ({ ...h, 'cache-control': 'private, no-cache' }),
    ),
};

export const authCacheable: Fault = {
  name: 'auth-cacheable',
  description:
    'a login answer carries the resource policy Cache-Control: private, no-cache: its tokens may be stored, not no-store',
  expectedCheck: 'response_headers_conformance',
  include: ['login'],
  create: () =>
    editHeaders(
      (res, req) => res.status === 200 && pathOf(req).startsWith(`${API}/auth/`),
      (h) => ({ ...h, 'cache-control': 'private, no-cache' }),
    ),
};

export const createdWithoutEtag: Fault = {
  name: 'created-without-etag',
  description: 'a 201 of a create carries no ETag (only reads are given validators)',
  expectedCheck: 'response_headers_conformance',
  include: ['createUser', 'getUser'],
  create: () =>
    editHeaders(
      (res, req) => req.method === 'POST' && res.status === 201,
      (h) => omit(h, 'etag'),
    ),
};

export const patchedWithoutLastModified: Fault = {
  name: 'patched-without-last-modified',
  description:
    'a 200 of a PATCH carries no Last-Modified (the new updatedAt is not turned into one)',
  expectedCheck: 'response_headers_conformance',
  include: ['users'],
  create: () =>
    editHeaders(
      (res, req) => req.method === 'PATCH' && res.status === 200,
      (h) => omit(h, 'last-modified'),
    ),
};

export const strongEtagOnList: Fault = {
  name: 'strong-etag-on-list',
  description: 'a page of users carries a strong ETag, where a weak one is due',
  expectedCheck: 'response_headers_conformance',
  include: ['listUsers'],
  create: () =>
    editHeaders(
      (res, req) => req.method === 'GET' && pathOf(req) === `${API}/users` && res.status === 200,
      (h) => (h.etag ? { ...h, etag: h.etag.replace(/^W\//, '') } : h),
    ),
};

const notModified = (drop: string): FaultHooks =>
  editHeaders(
    (res) => res.status === 304,
    (h) => omit(h, drop),
  );

export const notModifiedWithoutCacheControl: Fault = {
  name: 'not-modified-without-cache-control',
  description: 'a 304 carries no Cache-Control (its header set is built apart)',
  expectedCheck: 'response_headers_conformance',
  include: ['getUser'],
  create: () => notModified('cache-control'),
};

export const notModifiedWithoutVary: Fault = {
  name: 'not-modified-without-vary',
  description: 'a 304 carries no Vary (its header set is built apart)',
  expectedCheck: 'response_headers_conformance',
  include: ['getUser'],
  create: () => notModified('vary'),
};

export const notModifiedWithoutRequestId: Fault = {
  name: 'not-modified-without-request-id',
  description: 'a 304 carries no X-Request-Id (the id is added on the way of a body only)',
  expectedCheck: 'response_headers_conformance',
  include: ['getUser'],
  create: () => notModified('x-request-id'),
};

/** A GET with `condition` answered 304 whatever its value, once the 200 is known. */
const anyConditionNotModified = (condition: string, unless?: string): FaultHooks => ({
  response: (res, req) =>
    req.method === 'GET' &&
    req.headers[condition] !== undefined &&
    (unless === undefined || req.headers[unless] === undefined) &&
    res.status === 200
      ? { status: 304, headers: omit(res.headers, 'content-type', 'last-modified'), body: '' }
      : res,
});

export const anyIfNoneMatch304: Fault = {
  name: 'any-if-none-match-304',
  description:
    'If-None-Match is taken as "the client has it": any tag gets 304, a tag that does not match too',
  expectedCheck: 'etag_conditional',
  include: ['getUser'],
  create: () => anyConditionNotModified('if-none-match'),
};

export const anyIfModifiedSince304: Fault = {
  name: 'any-if-modified-since-304',
  description:
    'If-Modified-Since is compared the wrong way round: a date before the last change gets 304 too',
  expectedCheck: 'last_modified_conditional',
  include: ['getUser'],
  create: () => anyConditionNotModified('if-modified-since', 'if-none-match'),
};

/** PATCH or DELETE (`method`) of an absent user with If-Match: 412 where 404 is due. */
const absentIfMatch412 = (method: string): FaultHooks => ({
  request: async (req, ctx) => {
    const ifMatch = req.headers['if-match'];
    if (!ifMatch || ifMatch === '*' || req.method !== method || !USER_PATH.test(pathOf(req)))
      return req;
    const current = await ctx.forward(readBack(req));
    if (current.status !== 404) return req;
    return preconditionFailed(current, req, `If-Match ${ifMatch} does not match the current ETag.`);
  },
});

export const absentPatchIfMatch412: Fault = {
  name: 'absent-patch-if-match-412',
  description: 'PATCH of an absent user with an If-Match answers 412, not 404 (DELETE is right)',
  expectedCheck: 'preconditions_after_refusal',
  include: ['users'],
  create: () => absentIfMatch412('PATCH'),
};

export const absentDeleteIfMatch412: Fault = {
  name: 'absent-delete-if-match-412',
  description: 'DELETE of an absent user with an If-Match answers 412, not 404 (PATCH is right)',
  expectedCheck: 'preconditions_after_refusal',
  include: ['users'],
  create: () => absentIfMatch412('DELETE'),
};

const ORDER_PATH = /^\/api\/v1\/(users\/\d+\/)?orders\/\d+$/;

export const staleOrderAfterDelete: Fault = {
  name: 'stale-order-after-delete',
  description:
    'a read-through cache of orders, keyed by path, not evicted on DELETE: a deleted order that was read is still served',
  expectedCheck: 'use_after_free',
  include: ['orders', 'createUser'],
  create: () => {
    const cache = new Map<string, ProxyResponse>();
    const deletedIds = new Set<string>();
    const idOf = (path: string) => /(\d+)$/.exec(path)![1]!;
    return {
      request: (req) => {
        const path = pathOf(req);
        const cached = cache.get(path);
        return req.method === 'GET' && ORDER_PATH.test(path) && deletedIds.has(idOf(path)) && cached
          ? cached
          : req;
      },
      response: (res, req) => {
        const path = pathOf(req);
        if (!ORDER_PATH.test(path)) return res;
        if (req.method === 'GET' && res.status === 200 && !new URL(req.path, 'http://p').search)
          cache.set(path, res);
        if (req.method === 'DELETE' && res.status === 204) deletedIds.add(idOf(path));
        return res;
      },
    };
  },
};

export const originEchoedWithoutVary: Fault = {
  name: 'origin-echoed-without-vary',
  description:
    "CORS reflects the caller's Origin in Access-Control-Allow-Origin but adds no Vary: Origin, so a cache may hand one origin the answer allowed for another",
  expectedCheck: 'cross_origin_reads',
  include: ['getUser'],
  create: () => ({
    response: (res, req) =>
      req.headers.origin && res.headers['access-control-allow-origin'] === '*'
        ? {
            ...res,
            headers: { ...res.headers, 'access-control-allow-origin': req.headers.origin },
          }
        : res,
  }),
};

export const notModifiedWithoutCors: Fault = {
  name: 'not-modified-without-cors',
  description:
    'a 304 carries none of the CORS headers (they are added where a body is written), so a browser refuses the revalidated answer',
  expectedCheck: 'cross_origin_reads',
  include: ['getUser'],
  create: () =>
    editHeaders(
      (res) => res.status === 304,
      (h) =>
        Object.fromEntries(
          Object.entries(h).filter(([name]) => !name.startsWith('access-control-')),
        ),
    ),
};

export const categoryWithoutLastModified: Fault = {
  name: 'category-without-last-modified',
  description: 'GET of one category carries no Last-Modified (the lists of the catalogs are right)',
  expectedCheck: 'response_headers_conformance',
  include: ['getCategory'],
  create: () =>
    editHeaders(
      (res, req) => res.status === 200 && /^\/api\/v1\/categories\/\d+$/.test(pathOf(req)),
      (h) => omit(h, 'last-modified'),
    ),
};

const writesUser = (req: ProxyRequest) =>
  ['PUT', 'PATCH', 'DELETE'].includes(req.method) && USER_PATH.test(pathOf(req));

export const ifMatchNeverMatches: Fault = {
  name: 'if-match-never-matches',
  description:
    'If-Match is compared to the tag without its quotes: no tag ever matches, so every conditional write of an existing user is 412',
  expectedCheck: 'if_match_precondition',
  include: ['users'],
  create: () => ({
    request: async (req, ctx) => {
      const ifMatch = req.headers['if-match'];
      if (!ifMatch || ifMatch === '*' || !writesUser(req)) return req;
      const current = await ctx.forward(readBack(req));
      if (current.status !== 200) return req;
      return preconditionFailed(
        current,
        req,
        `If-Match ${ifMatch} does not match the current ETag.`,
      );
    },
  }),
};

export const ifMatch412AfterWrite: Fault = {
  name: 'if-match-412-after-write',
  description:
    'If-Match is judged after the write: a stale tag gets 412, but the change is made all the same',
  expectedCheck: 'if_match_precondition',
  include: ['users'],
  create: () => ({
    request: async (req, ctx) => {
      const ifMatch = req.headers['if-match'];
      if (!ifMatch || ifMatch === '*' || !writesUser(req)) return req;
      const current = await ctx.forward(readBack(req));
      const etag = current.headers.etag;
      if (current.status !== 200 || !etag) return req;
      const written = await ctx.forward({ ...req, headers: omit(req.headers, 'if-match') });
      if (ifMatch.split(/\s*,\s*/).includes(etag)) return written;
      return preconditionFailed(
        written,
        req,
        `If-Match ${ifMatch} does not match the current ETag.`,
      );
    },
  }),
};

export const putIfMatch412Creates: Fault = {
  name: 'put-if-match-412-creates',
  description:
    'a PUT with If-Match at an absent user id answers 412, but the user is created all the same',
  expectedCheck: 'put_if_match_absent',
  include: ['users'],
  create: () => ({
    request: async (req, ctx) => {
      const ifMatch = req.headers['if-match'];
      if (req.method !== 'PUT' || !ifMatch || !USER_PATH.test(pathOf(req))) return req;
      const current = await ctx.forward(readBack(req));
      if (current.status !== 404) return req;
      const written = await ctx.forward({ ...req, headers: omit(req.headers, 'if-match') });
      return preconditionFailed(
        written,
        req,
        `If-Match ${ifMatch} does not match: there is no current representation.`,
      );
    },
  }),
};

export const ifNoneMatch412AfterWrite: Fault = {
  name: 'if-none-match-412-after-write',
  description:
    'If-None-Match on a write is judged after the write: a matching tag gets 412, but the change is made all the same',
  expectedCheck: 'if_none_match_write',
  include: ['users'],
  create: () => ({
    request: async (req, ctx) => {
      const ifNoneMatch = req.headers['if-none-match'];
      if (!ifNoneMatch || !writesUser(req)) return req;
      const current = await ctx.forward(readBack(req));
      const etag = current.headers.etag;
      if (current.status !== 200 || !etag) return req;
      const written = await ctx.forward({ ...req, headers: omit(req.headers, 'if-none-match') });
      if (ifNoneMatch !== '*' && !ifNoneMatch.split(/\s*,\s*/).includes(etag)) return written;
      return preconditionFailed(
        written,
        req,
        `If-None-Match ${ifNoneMatch} matches the current representation.`,
      );
    },
  }),
};
