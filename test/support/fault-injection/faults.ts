import { randomUUID } from 'node:crypto';
import { omit, type FaultHooks, type ProxyRequest, type ProxyResponse } from './fault-proxy.js';

/**
 * One deliberately broken variant of the reference server: a single behaviour a buggy
 * backend really gets wrong, and the registered check that is its natural detector.
 */
export interface Fault {
  name: string;
  description: string;
  /** The check that must fail on this variant (others may fail too). */
  expectedCheck: string;
  /** operationIds or tags the run may be narrowed to, only to keep it short. */
  include?: string[];
  /** The transformation, made fresh for each run (some faults keep state). */
  create(): FaultHooks;
}

type Json = Record<string, unknown>;

const API = '/api/v1';
const USER_PATH = /^\/api\/v1\/users\/\d+$/;
/** Paths whose JSON answers are UserDto (or a UserPage of them). */
const USER_BODY_PATH =
  /^\/api\/v1\/(users(\/\d+(\/activate)?)?|admin\/users\/\d+\/(block|unblock))$/;

const pathOf = (req: ProxyRequest) => new URL(req.path, 'http://proxy').pathname;
const queryOf = (req: ProxyRequest) => new URL(req.path, 'http://proxy').searchParams;

function withoutQuery(req: ProxyRequest, name: string): ProxyRequest {
  const url = new URL(req.path, 'http://proxy');
  url.searchParams.delete(name);
  return { ...req, path: url.pathname + url.search };
}

function withoutHeader(name: string): FaultHooks {
  return { request: (req) => ({ ...req, headers: omit(req.headers, name) }) };
}

const isJson = (res: ProxyResponse) =>
  /^application\/json\b/i.test(res.headers['content-type'] ?? '');
const isProblem = (res: ProxyResponse) =>
  /^application\/problem\+json\b/i.test(res.headers['content-type'] ?? '');

/**
 * A problem answer (RFC 9457) as the server words one, built on an upstream answer so that it
 * keeps the server's own headers (X-Request-Id, Vary, RateLimit, ...).
 */
function problemAnswer(
  like: ProxyResponse,
  req: ProxyRequest,
  problem: { kind: string; title: string; status: number; detail: string },
): ProxyResponse {
  const requestId = like.headers['x-request-id'] ?? randomUUID();
  return {
    status: problem.status,
    headers: {
      ...omit(like.headers, 'etag', 'last-modified', 'link', 'location', 'accept-patch'),
      'content-type': 'application/problem+json; charset=utf-8',
      'cache-control': 'no-store',
      'x-request-id': requestId,
    },
    body: JSON.stringify({
      type: `urn:apikit:problem:${problem.kind}`,
      title: problem.title,
      status: problem.status,
      detail: problem.detail,
      instance: pathOf(req),
      requestId,
    }),
  };
}

/** The body as JSON, or undefined when it is not JSON (a negative probe's body, say). */
function parsed(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A GET of the same resource with the same credentials, to read the current state. */
const readBack = (req: ProxyRequest): ProxyRequest => ({
  ...req,
  method: 'GET',
  body: '',
  headers: omit(req.headers, 'content-type', 'if-match', 'if-none-match', 'idempotency-key'),
});

/** Rewrites the JSON body of an answer; the body is re-serialized. */
function editJson(res: ProxyResponse, edit: (body: unknown) => unknown): ProxyResponse {
  if (!res.body || !(isJson(res) || isProblem(res))) return res;
  return { ...res, body: JSON.stringify(edit(JSON.parse(res.body) as unknown)) };
}

/** Applies `edit` to every UserDto in a 2xx JSON answer about users (single or page). */
function editUsers(edit: (user: Json) => Json): FaultHooks {
  return {
    response: (res, req) => {
      if (res.status < 200 || res.status >= 300 || !USER_BODY_PATH.test(pathOf(req))) return res;
      return editJson(res, (body) => {
        const page = body as { content?: Json[] };
        if (Array.isArray(page.content)) return { ...page, content: page.content.map(edit) };
        return edit(body as Json);
      });
    },
  };
}

/**
 * A cache of user representations in front of the store that DELETE never evicts: a GET of
 * a cached user is answered from the cache once the user is deleted.
 */
function staleUserCache(options: { fillOnCreate: boolean }): FaultHooks {
  const cache = new Map<string, ProxyResponse>();
  const deleted = new Set<string>();
  return {
    request: (req) => {
      const path = pathOf(req);
      const cached = cache.get(path);
      return req.method === 'GET' && deleted.has(path) && cached ? cached : req;
    },
    response: (res, req) => {
      const path = pathOf(req);
      if (req.method === 'GET' && USER_PATH.test(path) && res.status === 200 && !queryOf(req).size)
        cache.set(path, res);
      if (req.method === 'DELETE' && USER_PATH.test(path) && res.status === 204) deleted.add(path);
      const location = res.headers.location;
      if (
        options.fillOnCreate &&
        req.method === 'POST' &&
        res.status === 201 &&
        location &&
        USER_PATH.test(location)
      )
        cache.set(location, { ...res, status: 200, headers: omit(res.headers, 'location') });
      return res;
    },
  };
}

const is2xx = (res: ProxyResponse) => res.status >= 200 && res.status < 300;

export const faults: Fault[] = [
  {
    name: 'location-dropped',
    description: 'a 201 from a create carries no Location header',
    expectedCheck: 'location_resolves',
    include: ['users'],
    create: () => ({
      response: (res) =>
        res.status === 201 ? { ...res, headers: omit(res.headers, 'location') } : res,
    }),
  },
  {
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
  },
  {
    name: 'status-filter-ignored',
    description: 'GET /users ignores the status filter and lists every user',
    expectedCheck: 'filter_honoured',
    include: ['listUsers'],
    create: () => ({
      request: (req) =>
        req.method === 'GET' && pathOf(req) === `${API}/users` ? withoutQuery(req, 'status') : req,
    }),
  },
  {
    name: 'size-ignored',
    description: 'GET /users ignores size and always answers the default page size',
    expectedCheck: 'paging_invariants',
    include: ['listUsers'],
    create: () => ({
      request: (req) =>
        req.method === 'GET' && pathOf(req) === `${API}/users` ? withoutQuery(req, 'size') : req,
    }),
  },
  {
    name: 'expand-ignored',
    description: 'GET /orders/{id} ignores expand: user and items never embedded',
    expectedCheck: 'expand_honoured',
    include: ['orders', 'createUser', 'getUser'],
    create: () => ({ request: (req) => withoutQuery(req, 'expand') }),
  },
  {
    name: 'createdAt-missing',
    description: 'UserDto answers lack the required createdAt',
    expectedCheck: 'response_schema_conformance',
    include: ['users'],
    create: () => editUsers(({ createdAt: _dropped, ...user }) => user),
  },
  {
    name: 'password-hash-leaked',
    description: 'UserDto answers carry an undocumented passwordHash (closed schema)',
    expectedCheck: 'response_schema_conformance',
    include: ['users'],
    create: () => editUsers((user) => ({ ...user, passwordHash: 'scrypt$16384$c2FsdA$aGFzaA' })),
  },
  {
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
  },
  {
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
  },
  {
    name: 'www-authenticate-missing',
    description: '401 answers carry no WWW-Authenticate challenge',
    expectedCheck: 'response_headers_conformance',
    include: ['getUser', 'listUsers', 'createUser'],
    create: () => ({
      response: (res) =>
        res.status === 401 ? { ...res, headers: omit(res.headers, 'www-authenticate') } : res,
    }),
  },
  {
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
  },
  {
    name: '405-without-allow',
    description: '405 answers lack the Allow header',
    expectedCheck: 'unsupported_method',
    include: ['users'],
    create: () => ({
      response: (res) =>
        res.status === 405 ? { ...res, headers: omit(res.headers, 'allow') } : res,
    }),
  },
  {
    name: 'options-allow-misses-head',
    description: 'OPTIONS lists only the explicitly routed methods: HEAD missing from Allow',
    expectedCheck: 'allow_header_conformance',
    include: ['http'],
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
  },
  {
    name: 'if-none-match-ignored',
    description: 'If-None-Match is never honoured (always 200 with the body)',
    expectedCheck: 'etag_conditional',
    include: ['users'],
    create: () => withoutHeader('if-none-match'),
  },
  {
    name: 'if-modified-since-ignored',
    description: 'If-Modified-Since is never honoured (always 200 with the body)',
    expectedCheck: 'last_modified_conditional',
    include: ['users'],
    create: () => withoutHeader('if-modified-since'),
  },
  {
    name: 'if-match-ignored',
    description: 'If-Match is ignored: a stale tag overwrites (lost update)',
    expectedCheck: 'if_match_precondition',
    include: ['users'],
    create: () => withoutHeader('if-match'),
  },
  {
    name: 'delete-does-not-delete',
    description:
      'DELETE of a user runs every check (auth, existence, If-Match) and answers 204, but removes nothing',
    expectedCheck: 'use_after_free',
    include: ['users'],
    create: () => ({
      request: async (req, ctx) => {
        if (req.method !== 'DELETE' || !USER_PATH.test(pathOf(req))) return req;
        const current = await ctx.forward(readBack(req));
        if (current.status !== 200) return current;
        const ifMatch = req.headers['if-match'];
        // A stale If-Match: the real DELETE answers 412 and deletes nothing, as it should.
        if (ifMatch && ifMatch !== '*' && !ifMatch.includes(current.headers.etag ?? '')) return req;
        return {
          status: 204,
          headers: omit(current.headers, 'content-type', 'etag', 'last-modified', 'cache-control'),
          body: '',
        };
      },
    }),
  },
  {
    name: 'second-delete-204',
    description: 'DELETE of an absent resource answers 204 instead of 404',
    expectedCheck: 'delete_twice',
    include: ['users'],
    create: () => ({
      response: (res, req) =>
        req.method === 'DELETE' && res.status === 404
          ? { status: 204, headers: {}, body: '' }
          : res,
    }),
  },
  {
    name: 'stale-read-after-delete',
    description:
      'a read-through cache of users, filled by GETs, not evicted on DELETE: a deleted user that was read before is still served',
    expectedCheck: 'use_after_free',
    include: ['users'],
    create: () => staleUserCache({ fillOnCreate: false }),
  },
  {
    name: 'stale-cache-after-delete',
    description:
      'a write-through cache of users, filled on create and on GET, not evicted on DELETE: GET of a deleted user answers 200',
    expectedCheck: 'use_after_free',
    include: ['users'],
    create: () => staleUserCache({ fillOnCreate: true }),
  },
  {
    name: 'patch-resets-unsent',
    description:
      'PATCH of a user builds a fresh entity from the DTO: unsent age becomes null, unsent name a default',
    expectedCheck: 'patch_keeps_fields',
    include: ['users'],
    create: () => ({
      request: async (req, ctx) => {
        const sent = parsed(req.body);
        if (req.method !== 'PATCH' || !USER_PATH.test(pathOf(req)) || !isObject(sent)) return req;
        const current = await ctx.forward(readBack(req));
        const user = parsed(current.body);
        if (current.status !== 200 || !isObject(user)) return req;
        const defaults: Json = { age: null, name: String(user.email).split('@')[0] };
        return { ...req, body: JSON.stringify({ ...defaults, ...sent }) };
      },
    }),
  },
  {
    name: 'put-keeps-unsent',
    description: 'PUT of a user merges like PATCH: an age it was not sent is kept',
    expectedCheck: 'put_idempotent',
    include: ['users'],
    create: () => ({
      request: async (req, ctx) => {
        const sent = parsed(req.body);
        if (
          req.method !== 'PUT' ||
          !USER_PATH.test(pathOf(req)) ||
          !isObject(sent) ||
          'age' in sent
        )
          return req;
        const current = await ctx.forward(readBack(req));
        const user = parsed(current.body);
        if (current.status !== 200 || !isObject(user)) return req;
        return { ...req, body: JSON.stringify({ ...sent, age: user.age }) };
      },
    }),
  },
  {
    name: 'head-without-validators',
    description: 'HEAD is served by a generic handler that forgets ETag and Last-Modified',
    expectedCheck: 'head_matches_get',
    include: ['users'],
    create: () => ({
      response: (res, req) =>
        req.method === 'HEAD'
          ? { ...res, headers: omit(res.headers, 'etag', 'last-modified') }
          : res,
    }),
  },
  {
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
  },
  {
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
  },
  {
    name: 'cache-control-dropped',
    description: 'GET answers carry no Cache-Control',
    expectedCheck: 'cache_control_present',
    include: ['users'],
    create: () => ({
      response: (res, req) =>
        req.method === 'GET' ? { ...res, headers: omit(res.headers, 'cache-control') } : res,
    }),
  },
  {
    name: 'idempotency-key-ignored',
    description: 'Idempotency-Key is ignored: a retried POST creates a second user',
    expectedCheck: 'idempotency_key_replay',
    include: ['users'],
    create: () => withoutHeader('idempotency-key'),
  },
  {
    name: 'invalid-data-accepted',
    description:
      'POST /users coerces a body it should refuse into something storable and answers 201',
    expectedCheck: 'negative_data_rejection',
    include: ['createUser'],
    create: () => {
      let coerced = 0;
      return {
        response: (res, req, ctx) =>
          req.method === 'POST' && pathOf(req) === `${API}/users` && res.status === 400
            ? ctx.forward({
                ...req,
                headers: {
                  ...omit(req.headers, 'idempotency-key'),
                  'content-type': 'application/json',
                },
                body: JSON.stringify({
                  name: 'unnamed',
                  email: `coerced-${++coerced}-${Date.now()}@example.com`,
                }),
              })
            : res,
      };
    },
  },
  {
    name: 'long-names-rejected',
    description:
      'names longer than 50 code points are refused with 400 (a column of 50; the contract allows 100)',
    expectedCheck: 'positive_data_acceptance',
    include: ['users'],
    create: () => ({
      request: (req) => {
        const path = pathOf(req);
        const body = parsed(req.body);
        if (
          !['POST', 'PUT', 'PATCH'].includes(req.method) ||
          !(path === `${API}/users` || USER_PATH.test(path)) ||
          !isObject(body) ||
          typeof body.name !== 'string' ||
          [...body.name].length <= 50
        )
          return req;
        // The server's own validation answer, as if its limit were 50.
        return { ...req, body: JSON.stringify({ ...body, name: 'x'.repeat(101) }) };
      },
    }),
  },
  {
    name: 'create-without-age-crashes',
    description: 'POST /users without the optional age fails with 500 (a null dereference)',
    expectedCheck: 'not_a_server_error',
    include: ['createUser'],
    create: () => ({
      response: (res, req) => {
        const body = parsed(req.body);
        return req.method === 'POST' &&
          pathOf(req) === `${API}/users` &&
          res.status === 201 &&
          isObject(body) &&
          body.age === undefined
          ? problemAnswer(res, req, {
              kind: 'internal-error',
              title: 'Internal server error',
              status: 500,
              detail: "Cannot read properties of undefined (reading 'valueOf')",
            })
          : res;
      },
    }),
  },
  {
    name: 'sort-by-email-crashes',
    description: 'GET /users sorted by email fails with 500 (a collation the database lacks)',
    expectedCheck: 'not_a_server_error',
    include: ['listUsers'],
    create: () => ({
      response: (res, req) =>
        req.method === 'GET' &&
        pathOf(req) === `${API}/users` &&
        res.status === 200 &&
        queryOf(req)
          .getAll('sort')
          .some((s) => s.startsWith('email'))
          ? problemAnswer(res, req, {
              kind: 'internal-error',
              title: 'Internal server error',
              status: 500,
              detail: 'collation "und-x-icu" for encoding "UTF8" does not exist',
            })
          : res,
    }),
  },
  {
    name: 'paging-totals-off-by-one',
    description: 'UserPage.totalElements counts one user too many',
    expectedCheck: 'paging_invariants',
    include: ['listUsers'],
    create: () => ({
      response: (res, req) =>
        req.method === 'GET' && pathOf(req) === `${API}/users` && res.status === 200
          ? editJson(res, (p) => ({
              ...(p as Json),
              totalElements: Number((p as Json).totalElements) + 1,
            }))
          : res,
    }),
  },
  {
    name: 'link-next-missing',
    description: 'the Link header of a page never has rel="next"',
    expectedCheck: 'paging_invariants',
    include: ['listUsers'],
    create: () => ({
      response: (res) =>
        res.headers.link
          ? {
              ...res,
              headers: {
                ...res.headers,
                link: res.headers.link
                  .split(/,\s*(?=<)/)
                  .filter((l) => !/rel="?next"?/.test(l))
                  .join(', '),
              },
            }
          : res,
    }),
  },
  {
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
  },
  {
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
  },
  {
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
  },
  {
    name: 'accept-ignored',
    description: 'Accept is ignored: Accept: text/html gets JSON with 200 instead of 406',
    expectedCheck: 'not_acceptable',
    include: ['users'],
    create: () => withoutHeader('accept'),
  },
  {
    name: 'new-user-not-readable',
    description: 'a created user is not readable (a lagging read replica answers 404)',
    expectedCheck: 'ensure_resource_availability',
    include: ['users'],
    create: () => {
      const created = new Set<string>();
      return {
        response: (res, req) => {
          const location = res.headers.location;
          if (
            req.method === 'POST' &&
            pathOf(req) === `${API}/users` &&
            res.status === 201 &&
            location
          )
            created.add(location);
          return req.method === 'GET' && res.status === 200 && created.has(pathOf(req))
            ? problemAnswer(res, req, {
                kind: 'not-found',
                title: 'Resource not found',
                status: 404,
                detail: `User ${pathOf(req).split('/').pop()} does not exist.`,
              })
            : res;
        },
      };
    },
  },
];
