/** Faults in what one answer says: its status, headers, media type, body schema, problem details. */
import {
  API,
  USER_PATH,
  pathOf,
  withoutHeader,
  isJson,
  isProblem,
  editJson,
  editUsers,
  is2xx,
  type Json,
} from './fault-helpers.js';
import { omit } from './fault-proxy.js';
import type { Fault } from './faults.js';

export const locationDropped: Fault = {
  name: 'location-dropped',
  description: 'a 201 from a create carries no Location header',
  expectedCheck: 'location_resolves',
  include: ['users'],
  create: () => ({
    response: (res) =>
      res.status === 201 ? { ...res, headers: omit(res.headers, 'location') } : res,
  }),
};

export const createAnswers200: Fault = {
  name: 'create-answers-200',
  description: 'POST /users answers 200 instead of 201 (Location kept)',
  expectedCheck: 'status_code_conformance',
  include: ['createUser', 'getUser'],
  create: () => ({
    response: (res, req) =>
      req.method === 'POST' && pathOf(req) === `${API}/users` && res.status === 201
        ? { ...res, status: 200 }
        : res,
  }),
};

export const createdAtMissing: Fault = {
  name: 'createdAt-missing',
  description: 'UserDto answers lack the required createdAt',
  expectedCheck: 'response_schema_conformance',
  include: ['users'],
  create: () => editUsers(({ createdAt: _dropped, ...user }) => user),
};

export const passwordHashLeaked: Fault = {
  name: 'password-hash-leaked',
  description: 'UserDto answers carry an undocumented passwordHash (closed schema)',
  expectedCheck: 'response_schema_conformance',
  include: ['users'],
  create: () => editUsers((user) => ({ ...user, passwordHash: 'scrypt$16384$c2FsdA$aGFzaA' })),
};

export const jsonAsTextPlain: Fault = {
  name: 'json-as-text-plain',
  description: 'successful JSON answers are labelled text/plain',
  expectedCheck: 'content_type_conformance',
  include: ['users'],
  create: () => ({
    response: (res) =>
      is2xx(res) && isJson(res)
        ? { ...res, headers: { ...res.headers, 'content-type': 'text/plain; charset=utf-8' } }
        : res,
  }),
};

export const wwwAuthenticateMissing: Fault = {
  name: 'www-authenticate-missing',
  description: '401 answers carry no WWW-Authenticate challenge',
  expectedCheck: 'response_headers_conformance',
  include: ['getUser', 'listUsers', 'createUser'],
  create: () => ({
    response: (res) =>
      res.status === 401 ? { ...res, headers: omit(res.headers, 'www-authenticate') } : res,
  }),
};

export const errorsAsPlainJson: Fault = {
  name: 'errors-as-plain-json',
  description: 'error answers are application/json instead of application/problem+json',
  expectedCheck: 'problem_json',
  include: ['users'],
  create: () => ({
    response: (res) =>
      res.status >= 400 && isProblem(res)
        ? {
            ...res,
            headers: { ...res.headers, 'content-type': 'application/json; charset=utf-8' },
          }
        : res,
  }),
};

export const problemStatusMismatch: Fault = {
  name: 'problem-status-mismatch',
  description:
    'a shared error helper writes status 400 into every problem, whatever the HTTP status',
  expectedCheck: 'problem_json',
  include: ['users'],
  create: () => ({
    response: (res) =>
      res.status > 400 && isProblem(res)
        ? editJson(res, (p) => ({ ...(p as Json), status: 400 }))
        : res,
  }),
};

export const cacheControlDropped: Fault = {
  name: 'cache-control-dropped',
  description: 'GET answers carry no Cache-Control',
  expectedCheck: 'cache_control_present',
  include: ['users'],
  create: () => ({
    response: (res, req) =>
      req.method === 'GET' ? { ...res, headers: omit(res.headers, 'cache-control') } : res,
  }),
};

export const etagMissing: Fault = {
  name: 'etag-missing',
  description: 'GET of a single user carries no ETag',
  expectedCheck: 'response_headers_conformance',
  include: ['getUser'],
  create: () => ({
    response: (res, req) =>
      req.method === 'GET' && USER_PATH.test(pathOf(req))
        ? { ...res, headers: omit(res.headers, 'etag') }
        : res,
  }),
};

export const catalogListsWithoutLastModified: Fault = {
  name: 'catalog-lists-without-last-modified',
  description:
    'GET /roles and GET /categories answer like other lists: a weak ETag and no Last-Modified',
  expectedCheck: 'response_headers_conformance',
  include: ['listRoles', 'listCategories'],
  create: () => ({
    response: (res, req) =>
      (req.method === 'GET' || req.method === 'HEAD') &&
      [`${API}/roles`, `${API}/categories`].includes(pathOf(req))
        ? { ...res, headers: omit(res.headers, 'last-modified') }
        : res,
  }),
};

export const acceptIgnored: Fault = {
  name: 'accept-ignored',
  description: 'Accept is ignored: Accept: text/html gets JSON with 200 instead of 406',
  expectedCheck: 'not_acceptable',
  include: ['users'],
  create: () => withoutHeader('accept'),
};
