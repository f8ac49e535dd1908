/** Faults in the headers of answers: validators, request ids, Location, caching of problems. */
import { omit } from './fault-proxy.js';
import {
  API,
  editHeaders,
  editJson,
  isObject,
  isProblem,
  pathOf,
  userRead200,
} from './fault-helpers.js';
import type { Fault } from './faults.js';

export const weakEtagOnUser: Fault = {
  name: 'weak-etag-on-user',
  description:
    'GET and HEAD of a single user carry a weak ETag (W/"..."), where a strong one is due',
  expectedCheck: 'response_headers_conformance',
  include: ['getUser'],
  create: () =>
    editHeaders(
      (res, req) => userRead200(res, req) && /^"/.test(res.headers.etag ?? ''),
      (h) => ({ ...h, etag: `W/${h.etag}` }),
    ),
};

export const lastModifiedMissing: Fault = {
  name: 'last-modified-missing',
  description:
    'GET and HEAD of a single user carry no Last-Modified (updatedAt is not turned into one)',
  expectedCheck: 'response_headers_conformance',
  include: ['getUser'],
  create: () => editHeaders(userRead200, (h) => omit(h, 'last-modified')),
};

export const notModifiedWithoutEtag: Fault = {
  name: 'not-modified-without-etag',
  description: 'a 304 carries no ETag (the header set of a 304 is built apart and misses it)',
  expectedCheck: 'response_headers_conformance',
  include: ['getUser'],
  create: () =>
    editHeaders(
      (res) => res.status === 304,
      (h) => omit(h, 'etag'),
    ),
};

export const requestIdMissing: Fault = {
  name: 'request-id-missing',
  description: 'answers of users carry no X-Request-Id header',
  expectedCheck: 'response_headers_conformance',
  include: ['getUser'],
  create: () =>
    editHeaders(
      (_res, req) => pathOf(req).startsWith(`${API}/users`),
      (h) => omit(h, 'x-request-id'),
    ),
};

export const problemCacheable: Fault = {
  name: 'problem-cacheable',
  description:
    'problem answers carry the resource policy Cache-Control: private, no-cache, not no-store',
  expectedCheck: 'response_headers_conformance',
  include: ['getUser'],
  create: () =>
    editHeaders(
      (res) => isProblem(res),
      (h) => ({ ...h, 'cache-control': 'private, no-cache' }),
    ),
};

export const locationAbsoluteUri: Fault = {
  name: 'location-absolute-uri',
  description:
    'Location of a created user is an absolute URI (http://host/api/v1/users/{id}), not the path-absolute form',
  expectedCheck: 'response_headers_conformance',
  include: ['createUser'],
  create: () =>
    editHeaders(
      (res) => res.status === 201 && (res.headers.location ?? '').startsWith('/'),
      (h) => ({ ...h, location: `http://localhost${h.location}` }),
    ),
};

export const optionsWithoutAcceptPatch: Fault = {
  name: 'options-without-accept-patch',
  description:
    'OPTIONS of a path that takes PATCH does not name the patch media types (no Accept-Patch)',
  expectedCheck: 'response_headers_conformance',
  include: ['optionsUser'],
  create: () =>
    editHeaders(
      (_res, req) => req.method === 'OPTIONS',
      (h) => omit(h, 'accept-patch'),
    ),
};

export const varyMissing: Fault = {
  name: 'vary-missing',
  description:
    "GET of a user carries no Vary, so a shared cache may serve one caller another's answer",
  expectedCheck: 'response_headers_conformance',
  include: ['getUser'],
  create: () => editHeaders(userRead200, (h) => omit(h, 'vary')),
};

export const problemInstanceUnprefixed: Fault = {
  name: 'problem-instance-unprefixed',
  description: 'the instance of a problem is the path the router saw, without /api/v1',
  expectedCheck: 'problem_json',
  include: ['getUser'],
  create: () => ({
    response: (res) =>
      isProblem(res)
        ? editJson(res, (p) =>
            isObject(p) && typeof p.instance === 'string'
              ? { ...p, instance: p.instance.replace(/^\/api\/v1/, '') }
              : p,
          )
        : res,
  }),
};

export const optionsNeedsToken: Fault = {
  name: 'options-needs-token',
  description:
    'OPTIONS is behind authentication: without a token it is 401 (a CORS preflight fails)',
  expectedCheck: 'allow_header_conformance',
  include: ['optionsUser'],
  // The token check runs before the method is looked at: the 401 a GET without a token gets.
  create: () => ({
    request: (req, ctx) =>
      req.method === 'OPTIONS' && !req.headers.authorization
        ? ctx.forward({ ...req, method: 'GET' })
        : req,
  }),
};
