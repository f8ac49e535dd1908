/**
 * Faults in the HTTP conventions a spec declares in `x-apikit-http` (strict routing, versions,
 * unrecognized methods), and HEAD's credentials: routers and frameworks that are lenient where
 * the contract is strict.
 */
import { pathOf, problemAnswer } from './fault-helpers.js';
import type { ProxyRequest, ProxyResponse } from './fault-proxy.js';
import type { Fault } from './faults.js';

/** The request with its path (not its query) changed. */
function rewritePath(req: ProxyRequest, edit: (path: string) => string): ProxyRequest {
  const url = new URL(req.path, 'http://proxy');
  const path = edit(url.pathname);
  return path === url.pathname ? req : { ...req, path: path + url.search };
}

export const trailingSlashRouted: Fault = {
  name: 'trailing-slash-routed',
  description: 'the router ignores a trailing slash: GET /users/ answers the list',
  expectedCheck: 'strict_routing',
  include: ['users'],
  create: () => ({
    request: (req) => rewritePath(req, (p) => (p.length > 1 ? p.replace(/\/+$/, '') : p)),
  }),
};

export const caseInsensitiveRouting: Fault = {
  name: 'case-insensitive-routing',
  description: 'the router matches paths case-insensitively: GET /USERS answers the list',
  expectedCheck: 'strict_routing',
  include: ['users'],
  create: () => ({ request: (req) => rewritePath(req, (p) => p.toLowerCase()) }),
};

export const jsonExtensionRouted: Fault = {
  name: 'json-extension-routed',
  description: 'a ".json" suffix selects the format: GET /users.json answers the list',
  expectedCheck: 'strict_routing',
  include: ['users'],
  create: () => ({ request: (req) => rewritePath(req, (p) => p.replace(/\.json$/, '')) }),
};

export const optionsUnknown204: Fault = {
  name: 'options-unknown-204',
  description: 'a CORS middleware answers OPTIONS on any path 204, unknown paths included',
  expectedCheck: 'strict_routing',
  include: ['users'],
  create: () => ({
    response: (res, req) =>
      req.method === 'OPTIONS' && res.status === 404
        ? {
            status: 204,
            headers: { 'x-request-id': res.headers['x-request-id'] ?? '', allow: 'OPTIONS' },
            body: '',
          }
        : res,
  }),
};

export const unknownPath405: Fault = {
  name: 'unknown-path-405',
  description: 'methods are matched before paths: DELETE on an unknown path is 405, not 404',
  expectedCheck: 'strict_routing',
  include: ['users'],
  create: () => ({
    response: (res, req) => {
      if (res.status !== 404 || req.method !== 'DELETE' || /\/\d+$/.test(pathOf(req))) return res;
      const answer = problemAnswer(res, req, {
        kind: 'method-not-allowed',
        title: 'Method not allowed',
        status: 405,
        detail: 'DELETE is not supported here.',
      });
      return { ...answer, headers: { ...answer.headers, allow: 'GET, HEAD, OPTIONS' } };
    },
  }),
};

export const unknownMethod405: Fault = {
  name: 'unknown-method-405',
  description: 'a method the server does not know is answered 405, as if the path lacked it',
  expectedCheck: 'unrecognized_method',
  include: ['users'],
  create: () => ({
    response: (res, req) => {
      if (res.status !== 501) return res;
      const answer = problemAnswer(res, req, {
        kind: 'method-not-allowed',
        title: 'Method not allowed',
        status: 405,
        detail: `${req.method} is not supported here.`,
      });
      return { ...answer, headers: { ...answer.headers, allow: 'GET, HEAD, OPTIONS, POST' } };
    },
  }),
};

export const headSkipsAuth: Fault = {
  name: 'head-skips-auth',
  description: 'HEAD is answered by a static layer before authentication: no token needed',
  expectedCheck: 'head_requires_auth',
  include: ['users'],
  create: () => ({
    request: async (req, ctx) =>
      req.method === 'HEAD' && !req.headers.authorization
        ? { ...req, headers: { ...req.headers, authorization: await ctx.adminAuthorization() } }
        : req,
  }),
};

export const anyVersionRouted: Fault = {
  name: 'any-version-routed',
  description: 'the version segment is ignored: /api/v2/users answers as /api/v1/users',
  expectedCheck: 'version_routing',
  include: ['users'],
  create: () => ({
    request: (req) => rewritePath(req, (p) => p.replace(/^\/api\/v\d+\//, '/api/v1/')),
  }),
};

export const versionAliasMissing: Fault = {
  name: 'version-alias-missing',
  description: '/api is not an alias of the newest version: /api/users is 404',
  expectedCheck: 'version_routing',
  include: ['users'],
  create: () => ({
    request: (req): ProxyRequest | ProxyResponse =>
      /^\/api\/(?!v\d+\/)/.test(pathOf(req))
        ? rewritePath(req, (p) => p.replace(/^\/api\//, '/api/v0/'))
        : req,
  }),
};

export const aliasLinksUnversioned: Fault = {
  name: 'alias-links-unversioned',
  description:
    'answers through /api build their Link targets from the request path: </api/users?…>',
  expectedCheck: 'version_routing',
  include: ['users'],
  create: () => ({
    response: (res, req) =>
      /^\/api\/(?!v\d+\/)/.test(pathOf(req)) && res.headers.link
        ? {
            ...res,
            headers: { ...res.headers, link: res.headers.link.replace(/<\/api\/v1\//g, '</api/') },
          }
        : res,
  }),
};
