/**
 * Faults that each break one clause of a service rule (issue 32, decision 0114): one open
 * route that asks for a token, one served form of the contract, one CORS list, one part of the
 * request id.
 */
import { parse, stringify } from 'yaml';
import { API, editJson, isObject, isProblem, pathOf, problemAnswer } from './fault-helpers.js';
import type { FaultHooks, ProxyRequest, ProxyResponse } from './fault-proxy.js';
import type { Fault } from './faults.js';
import { loginLimiter, WINDOW_MS } from './service-faults.js';

/** Answers 401 to a request of `matches` sent without a token, as a secured operation would. */
function needsToken(matches: (req: ProxyRequest) => boolean): FaultHooks {
  return {
    response: (res, req) =>
      matches(req) && !req.headers.authorization
        ? {
            ...problemAnswer(res, req, {
              kind: 'unauthenticated',
              title: 'Authentication required',
              status: 401,
              detail: 'a bearer token is required',
            }),
          }
        : res,
  };
}

const get = (path: string) => (req: ProxyRequest) => req.method === 'GET' && pathOf(req) === path;

export const docsNeedsToken: Fault = {
  name: 'docs-needs-token',
  description: 'GET /docs without a token is 401: the reference page sits behind the API guard',
  expectedCheck: 'open_routes',
  include: ['getUser'],
  create: () => needsToken(get('/docs')),
};

export const openapiJsonNeedsToken: Fault = {
  name: 'openapi-json-needs-token',
  description: 'GET /openapi.json without a token is 401: the contract is served to callers only',
  expectedCheck: 'open_routes',
  include: ['getUser'],
  create: () => needsToken(get('/openapi.json')),
};

export const openapiYamlNeedsToken: Fault = {
  name: 'openapi-yaml-needs-token',
  description: 'GET /openapi.yaml without a token is 401 (the JSON form stays open)',
  expectedCheck: 'open_routes',
  include: ['getUser'],
  create: () => needsToken(get('/openapi.yaml')),
};

export const refreshNeedsToken: Fault = {
  name: 'refresh-needs-token',
  description:
    'POST /auth/refresh without an access token is 401: a client whose access token expired cannot renew it',
  expectedCheck: 'refresh_rotation',
  include: ['auth'],
  create: () => needsToken((req) => req.method === 'POST' && pathOf(req) === `${API}/auth/refresh`),
};

export const servedYamlStale: Fault = {
  name: 'served-yaml-stale',
  description:
    'GET /openapi.yaml serves a stale contract (its last path missing) while /openapi.json is current',
  expectedCheck: 'served_documents',
  include: ['getUser'],
  create: () => ({
    response: (res, req) => {
      if (!get('/openapi.yaml')(req) || res.status !== 200) return res;
      const doc: unknown = parse(res.body);
      if (!isObject(doc) || !isObject(doc['paths'])) return res;
      const paths = { ...doc['paths'] };
      delete paths[Object.keys(paths).at(-1)!];
      return { ...res, body: stringify({ ...doc, paths }) };
    },
  }),
};

export const servedVersionTwoPart: Fault = {
  name: 'served-version-two-part',
  description: 'GET /openapi.json serves info.version "1.0", not the three-part 1.0.0',
  expectedCheck: 'served_documents',
  include: ['getUser'],
  create: () => ({
    response: (res, req) =>
      get('/openapi.json')(req) && res.status === 200
        ? editJson(res, (doc) =>
            isObject(doc) && isObject(doc['info'])
              ? { ...doc, info: { ...doc['info'], version: '1.0' } }
              : doc,
          )
        : res,
  }),
};

export const corsAllowsNoIdempotencyKey: Fault = {
  name: 'cors-allows-no-idempotency-key',
  description:
    'a CORS preflight does not allow Idempotency-Key: a browser app cannot retry a create safely',
  expectedCheck: 'cors_headers',
  include: ['getUser'],
  create: () => ({
    response: (res) => {
      const allowed = res.headers['access-control-allow-headers'];
      if (allowed === undefined) return res;
      const kept = allowed
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s.toLowerCase() !== 'idempotency-key');
      return {
        ...res,
        headers: { ...res.headers, 'access-control-allow-headers': kept.join(', ') },
      };
    },
  }),
};

/** Sets the request id of an answer (header and, in a problem, the body's copy). */
function withRequestId(res: ProxyResponse, id: string): ProxyResponse {
  const headers = { ...res.headers, 'x-request-id': id };
  if (!isProblem(res)) return { ...res, headers };
  return editJson({ ...res, headers }, (b) => (isObject(b) ? { ...b, requestId: id } : b));
}

export const requestIdConstant: Fault = {
  name: 'request-id-constant',
  description:
    'a request sent without X-Request-Id gets the same generated id as every other (a fixed default), so answers cannot be told apart',
  expectedCheck: 'request_id_echo',
  include: ['getUser'],
  create: () => ({
    response: (res, req) =>
      req.headers['x-request-id'] ? res : withRequestId(res, 'apikit-request'),
  }),
};

export const problemRequestIdDiffers: Fault = {
  name: 'problem-request-id-differs',
  description:
    "a problem body's requestId is generated apart from the X-Request-Id header of the same answer",
  expectedCheck: 'problem_request_id',
  include: ['getUser'],
  create: () => ({
    response: (res) =>
      isProblem(res)
        ? editJson(res, (b) =>
            isObject(b) ? { ...b, requestId: `${String(b.requestId)}-body` } : b,
          )
        : res,
  }),
};

export const problemWithoutRequestId: Fault = {
  name: 'problem-without-request-id',
  description:
    'problem bodies leave out requestId (the X-Request-Id header is still sent): a client reading the body alone cannot quote the request',
  expectedCheck: 'response_schema_conformance',
  include: ['getUser'],
  create: () => ({
    response: (res) =>
      isProblem(res)
        ? editJson(res, (b) => {
            if (!isObject(b)) return b;
            const { requestId: _dropped, ...rest } = b;
            return rest;
          })
        : res,
  }),
};

/**
 * Changes the answers an Idempotency-Key replays: a 2xx to a key already answered 2xx for the
 * same subject and path (the server's replay of the first answer).
 */
function replayed(change: (res: ProxyResponse) => ProxyResponse): FaultHooks {
  const answered = new Set<string>();
  return {
    response: (res, req) => {
      const key = req.headers['idempotency-key'];
      if (req.method !== 'POST' || !key || res.status < 200 || res.status >= 300) return res;
      const scoped = `${req.headers.authorization ?? ''} ${pathOf(req)} ${key}`;
      if (!answered.has(scoped)) {
        answered.add(scoped);
        return res;
      }
      return change(res);
    },
  };
}

export const idempotencyReplay200: Fault = {
  name: 'idempotency-replay-200',
  description: 'a replayed Idempotency-Key answers 200 (not the 201 of the first answer)',
  expectedCheck: 'idempotency_key_replay',
  include: ['users'],
  create: () => replayed((res) => ({ ...res, status: 200 })),
};

export const idempotencyReplayWithoutLocation: Fault = {
  name: 'idempotency-replay-without-location',
  description: 'a replayed Idempotency-Key answers without the Location of the first answer',
  expectedCheck: 'idempotency_key_replay',
  include: ['users'],
  create: () =>
    replayed((res) => ({
      ...res,
      headers: Object.fromEntries(
        Object.entries(res.headers).filter(([k]) => k.toLowerCase() !== 'location'),
      ),
    })),
};

export const idempotencyReplayWithoutBody: Fault = {
  name: 'idempotency-replay-without-body',
  description:
    'a replayed Idempotency-Key answers the first status and Location with an empty body (only they were remembered)',
  expectedCheck: 'idempotency_key_replay',
  include: ['users'],
  create: () => replayed((res) => ({ ...res, body: '' })),
};

/** Keys remembered by `scope(req)` and the key alone: what a server keying too coarsely replays. */
function coarseKeys(scope: (req: ProxyRequest) => string): FaultHooks {
  const first = new Map<string, { exact: string; res: ProxyResponse }>();
  const exact = (req: ProxyRequest) => `${req.headers.authorization ?? ''} ${pathOf(req)}`;
  return {
    request: (req) => {
      const key = req.headers['idempotency-key'];
      const seen = key && req.method === 'POST' ? first.get(`${scope(req)} ${key}`) : undefined;
      return seen && seen.exact !== exact(req) ? seen.res : req;
    },
    response: (res, req) => {
      const key = req.headers['idempotency-key'];
      const scoped = `${scope(req)} ${key}`;
      if (
        key &&
        req.method === 'POST' &&
        res.status >= 200 &&
        res.status < 300 &&
        !first.has(scoped)
      )
        first.set(scoped, { exact: exact(req), res });
      return res;
    },
  };
}

export const idempotencyKeyIgnoresPath: Fault = {
  name: 'idempotency-key-ignores-path',
  description:
    "Idempotency-Key is scoped to the subject alone: the same key on another path replays the first path's answer",
  expectedCheck: 'idempotency_key_scope',
  include: ['users', 'orders'],
  create: () => coarseKeys((req) => req.headers.authorization ?? ''),
};

export const idempotencyKeyIgnoresSubject: Fault = {
  name: 'idempotency-key-ignores-subject',
  description:
    "Idempotency-Key is scoped to the path alone: another caller's request with the same key replays the first caller's answer",
  expectedCheck: 'idempotency_key_scope',
  include: ['users', 'orders'],
  create: () => coarseKeys((req) => pathOf(req)),
};

export const linkAbsoluteUri: Fault = {
  name: 'link-absolute-uri',
  description:
    'the Link targets of a page are absolute URIs (http://host/api/v1/users?…), not the path-absolute form',
  expectedCheck: 'response_headers_conformance',
  include: ['listUsers'],
  create: () => ({
    response: (res, req) =>
      res.headers.link
        ? {
            ...res,
            headers: {
              ...res.headers,
              link: res.headers.link.replace(/<\//g, `<http://${req.headers.host ?? 'localhost'}/`),
            },
          }
        : res,
  }),
};

export const problemInstanceAbsolute: Fault = {
  name: 'problem-instance-absolute',
  description:
    "a problem's instance is the request's absolute URI (http://host/api/v1/…), not the path-absolute form",
  expectedCheck: 'response_schema_conformance',
  include: ['getUser'],
  create: () => ({
    response: (res, req) =>
      isProblem(res)
        ? editJson(res, (b) =>
            isObject(b) && typeof b.instance === 'string' && b.instance.startsWith('/')
              ? { ...b, instance: `http://${req.headers.host ?? 'localhost'}${b.instance}` }
              : b,
          )
        : res,
  }),
};

/** A valid RateLimit pair, as a limiter with a 1,000-request budget reports it. */
const RATE_LIMIT_PAIR = {
  ratelimit: '"default";r=999;t=60',
  'ratelimit-policy': '"default";q=1000;w=60',
};
const underApi = (req: ProxyRequest) => pathOf(req).startsWith(API) && req.method !== 'OPTIONS';

export const rateLimitPolicyWithoutQuota: Fault = {
  name: 'rate-limit-policy-without-quota',
  description:
    'RateLimit-Policy names its policy without the quota parameter q ("default";w=60): a client cannot tell its budget',
  expectedCheck: 'rate_limit_headers',
  include: ['getUser'],
  create: () => ({
    response: (res, req) =>
      underApi(req)
        ? {
            ...res,
            headers: { ...res.headers, ...RATE_LIMIT_PAIR, 'ratelimit-policy': '"default";w=60' },
          }
        : res,
  }),
};

export const rateLimitHeadersMissingOnErrors: Fault = {
  name: 'rate-limit-headers-missing-on-errors',
  description:
    'the RateLimit headers are set by a step after the error handler: 2xx answers carry them, 4xx answers do not',
  expectedCheck: 'rate_limit_headers',
  // The run's logins (2xx) show the limit before the 4xx answers of getUser.
  include: ['login', 'getUser'],
  create: () => ({
    response: (res, req) =>
      underApi(req) && res.status < 400
        ? { ...res, headers: { ...res.headers, ...RATE_LIMIT_PAIR } }
        : res,
  }),
};

const tooMany = (res: ProxyResponse, req: ProxyRequest) =>
  problemAnswer(res, req, {
    kind: 'rate-limited',
    title: 'Too many requests',
    status: 429,
    detail: 'Rate limit exceeded',
  });

export const login429RetryAfterDate: Fault = {
  name: 'login-429-retry-after-date',
  description:
    'the login limiter answers 429 with Retry-After as an HTTP date, not integer seconds',
  expectedCheck: 'rate_limit_exceeded',
  include: ['getUser', 'login'],
  provokeRateLimits: true,
  create: () =>
    loginLimiter((res, req) => {
      const answer = tooMany(res, req);
      const at = new Date(Date.now() + WINDOW_MS).toUTCString();
      return { ...answer, headers: { ...answer.headers, 'retry-after': at } };
    }),
};

export const login429WithoutRateLimit: Fault = {
  name: 'login-429-without-rate-limit',
  description:
    'the login limiter answers 429 with Retry-After but without the RateLimit headers the answers before carried',
  expectedCheck: 'rate_limit_exceeded',
  include: ['getUser', 'login'],
  provokeRateLimits: true,
  create: () =>
    loginLimiter((res, req) => {
      const answer = tooMany(res, req);
      const headers = Object.fromEntries(
        Object.entries(answer.headers).filter(([k]) => !k.toLowerCase().startsWith('ratelimit')),
      );
      return { ...answer, headers: { ...headers, 'retry-after': '2' } };
    }),
};
