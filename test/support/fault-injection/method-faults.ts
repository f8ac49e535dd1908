/** Faults in HTTP method semantics: 405 and Allow, HEAD, safe GETs, conditional requests. */
import { USER_PATH, pathOf, preconditionFailed, readBack, withoutHeader } from './fault-helpers.js';
import { omit } from './fault-proxy.js';
import type { Fault } from './faults.js';

export const status405WithoutAllow: Fault = {
  name: '405-without-allow',
  description: '405 answers lack the Allow header',
  expectedCheck: 'unsupported_method',
  include: ['users'],
  create: () => ({
    response: (res) => (res.status === 405 ? { ...res, headers: omit(res.headers, 'allow') } : res),
  }),
};

export const optionsAllowMissesHead: Fault = {
  name: 'options-allow-misses-head',
  description: 'OPTIONS lists only the explicitly routed methods: HEAD missing from Allow',
  expectedCheck: 'allow_header_conformance',
  include: ['optionsUsers', 'listUsers'],
  create: () => ({
    response: (res, req) =>
      req.method === 'OPTIONS' && res.headers.allow
        ? {
            ...res,
            headers: {
              ...res.headers,
              allow: res.headers.allow
                .split(/\s*,\s*/)
                .filter((m) => m !== 'HEAD')
                .join(', '),
            },
          }
        : res,
  }),
};

export const headWithoutValidators: Fault = {
  name: 'head-without-validators',
  description: 'HEAD is served by a generic handler that forgets ETag and Last-Modified',
  expectedCheck: 'head_matches_get',
  include: ['users'],
  create: () => ({
    response: (res, req) =>
      req.method === 'HEAD' ? { ...res, headers: omit(res.headers, 'etag', 'last-modified') } : res,
  }),
};

export const ifNoneMatchIgnored: Fault = {
  name: 'if-none-match-ignored',
  description: 'If-None-Match is never honoured (always 200 with the body)',
  expectedCheck: 'etag_conditional',
  include: ['users'],
  create: () => withoutHeader('if-none-match'),
};

export const ifModifiedSinceIgnored: Fault = {
  name: 'if-modified-since-ignored',
  description: 'If-Modified-Since is never honoured (always 200 with the body)',
  expectedCheck: 'last_modified_conditional',
  include: ['users'],
  create: () => withoutHeader('if-modified-since'),
};

export const ifMatchIgnored: Fault = {
  name: 'if-match-ignored',
  description: 'If-Match is ignored: a stale tag overwrites (lost update)',
  expectedCheck: 'if_match_precondition',
  include: ['users'],
  create: () => withoutHeader('if-match'),
};

export const preconditionsBeforeRefusal: Fault = {
  name: 'preconditions-before-refusal',
  description:
    'If-Match is judged in a middleware before the handler authorizes: a USER changing an ADMIN with a stale tag gets 412, not 403',
  expectedCheck: 'preconditions_after_refusal',
  include: ['users'],
  create: () => ({
    request: async (req, ctx) => {
      const ifMatch = req.headers['if-match'];
      if (!ifMatch || ifMatch === '*' || !['PUT', 'PATCH', 'DELETE'].includes(req.method))
        return req;
      if (!USER_PATH.test(pathOf(req))) return req;
      const current = await ctx.forward(readBack(req));
      const etag = current.headers.etag;
      if (current.status !== 200 || !etag || ifMatch.includes(etag)) return req;
      return preconditionFailed(
        current,
        req,
        `If-Match ${ifMatch} does not match the current ETag.`,
      );
    },
  }),
};

export const getRecordsVisits: Fault = {
  name: 'get-records-visits',
  description: 'GET of a user writes a "last seen" change into the user (age bumped)',
  expectedCheck: 'get_is_safe',
  include: ['users'],
  create: () => {
    let visits = 18;
    return {
      response: async (res, req, ctx) => {
        if (req.method === 'GET' && USER_PATH.test(pathOf(req)) && res.status === 200)
          await ctx.forward({
            method: 'PATCH',
            path: pathOf(req),
            headers: {
              authorization: await ctx.adminAuthorization(),
              'content-type': 'application/json',
            },
            body: JSON.stringify({ age: ++visits }),
          });
        return res;
      },
    };
  },
};
