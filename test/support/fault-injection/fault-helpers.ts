/** What the fault table's entries share: paths, request and answer edits, stateful hooks. */
import { randomUUID } from 'node:crypto';
import { omit, type FaultHooks, type ProxyRequest, type ProxyResponse } from './fault-proxy.js';

export type Json = Record<string, unknown>;

export const API = '/api/v1';
export const USER_PATH = /^\/api\/v1\/users\/\d+$/;
/** Paths whose JSON answers are UserDto (or a UserPage of them). */
export const USER_BODY_PATH =
  /^\/api\/v1\/(users(\/\d+(\/activate)?)?|admin\/users\/\d+\/(block|unblock))$/;

export const pathOf = (req: ProxyRequest) => new URL(req.path, 'http://proxy').pathname;
export const queryOf = (req: ProxyRequest) => new URL(req.path, 'http://proxy').searchParams;

export function withoutQuery(req: ProxyRequest, name: string): ProxyRequest {
  const url = new URL(req.path, 'http://proxy');
  url.searchParams.delete(name);
  return { ...req, path: url.pathname + url.search };
}

/**
 * A request refused 403 where `applies`, carried out as the admin instead: an ADMIN rule the
 * server does not enforce there.
 */
export function forbiddenServedAsAdmin(applies: (req: ProxyRequest) => boolean): FaultHooks {
  return {
    response: async (res, req, ctx) =>
      res.status === 403 && applies(req)
        ? ctx.forward({
            ...req,
            headers: { ...req.headers, authorization: await ctx.adminAuthorization() },
          })
        : res,
  };
}

/** Edits the headers of the answers `when` picks. */
export const editHeaders = (
  when: (res: ProxyResponse, req: ProxyRequest) => boolean,
  edit: (h: Record<string, string>) => Record<string, string>,
): FaultHooks => ({
  response: (res, req) => (when(res, req) ? { ...res, headers: edit(res.headers) } : res),
});

/** GET and HEAD of a single user, answered 200. */
export const userRead200 = (res: ProxyResponse, req: ProxyRequest) =>
  ['GET', 'HEAD'].includes(req.method) && USER_PATH.test(pathOf(req)) && res.status === 200;

/** A PUT of a single user, answered 2xx. */
export const userPut2xx = (res: ProxyResponse, req: ProxyRequest) =>
  req.method === 'PUT' && is2xx(res) && USER_PATH.test(pathOf(req));

export function withoutHeader(name: string): FaultHooks {
  return { request: (req) => ({ ...req, headers: omit(req.headers, name) }) };
}

export const isJson = (res: ProxyResponse) =>
  /^application\/json\b/i.test(res.headers['content-type'] ?? '');
export const isProblem = (res: ProxyResponse) =>
  /^application\/problem\+json\b/i.test(res.headers['content-type'] ?? '');

/**
 * A problem answer (RFC 9457) as the server words one, built on an upstream answer so that it
 * keeps the server's own headers (X-Request-Id, Vary, RateLimit, ...).
 */
export function problemAnswer(
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

/** The server's 412 answer (precondition-failed) with `detail`, built on `res` like problemAnswer. */
export function preconditionFailed(
  res: ProxyResponse,
  req: ProxyRequest,
  detail: string,
): ProxyResponse {
  return problemAnswer(res, req, {
    kind: 'precondition-failed',
    title: 'Precondition failed',
    status: 412,
    detail,
  });
}

/** The body as JSON, or undefined when it is not JSON (a negative probe's body, say). */
export function parsed(body: string): unknown {
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}

export const isObject = (v: unknown): v is Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A GET of the same resource with the same credentials, to read the current state. */
export const readBack = (req: ProxyRequest): ProxyRequest => ({
  ...req,
  method: 'GET',
  body: '',
  headers: omit(req.headers, 'content-type', 'if-match', 'if-none-match', 'idempotency-key'),
});

/** Rewrites the JSON body of an answer; the body is re-serialized. */
export function editJson(res: ProxyResponse, edit: (body: unknown) => unknown): ProxyResponse {
  if (!res.body || !(isJson(res) || isProblem(res))) return res;
  return { ...res, body: JSON.stringify(edit(JSON.parse(res.body) as unknown)) };
}

/** Applies `edit` to every UserDto in a 2xx JSON answer about users (single or page). */
export function editUsers(edit: (user: Json) => Json): FaultHooks {
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
export function staleUserCache(options: { fillOnCreate: boolean }): FaultHooks {
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

export const is2xx = (res: ProxyResponse) => res.status >= 200 && res.status < 300;
