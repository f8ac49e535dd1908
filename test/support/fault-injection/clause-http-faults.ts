/**
 * Faults that each break one clause of an HTTP rule: OPTIONS and 405 with Allow, HEAD, what a
 * 400 is for, problem members, documented answers, PUT repeated.
 */
import { omit, type FaultHooks, type ProxyRequest, type ProxyResponse } from './fault-proxy.js';
import {
  API,
  editJson,
  is2xx,
  isJson,
  isObject,
  isProblem,
  parsed,
  pathOf,
  problemAnswer,
  queryOf,
  type Json,
} from './fault-helpers.js';
import type { Fault } from './faults.js';

/** Rewrites the Allow header of the answers `when` picks. */
const allow = (
  when: (res: ProxyResponse, req: ProxyRequest) => boolean,
  edit: (methods: string[]) => string[],
): FaultHooks => ({
  response: (res, req) =>
    when(res, req) && res.headers.allow !== undefined
      ? {
          ...res,
          headers: { ...res.headers, allow: edit(res.headers.allow.split(/\s*,\s*/)).join(', ') },
        }
      : res,
});

export const optionsAnswers200: Fault = {
  name: 'options-answers-200',
  description: 'OPTIONS answers 200 with an empty body, not 204',
  expectedCheck: 'status_code_conformance',
  include: ['optionsUsers', 'listUsers'],
  create: () => ({
    response: (res, req) =>
      req.method === 'OPTIONS' && res.status === 204 ? { ...res, status: 200 } : res,
  }),
};

export const optionsAllowMissesOptions: Fault = {
  name: 'options-allow-misses-options',
  description: 'Allow on OPTIONS lists the routed methods only: OPTIONS itself is missing',
  expectedCheck: 'allow_header_conformance',
  include: ['optionsUsers', 'listUsers'],
  create: () =>
    allow(
      (_res, req) => req.method === 'OPTIONS',
      (methods) => methods.filter((m) => m !== 'OPTIONS'),
    ),
};

export const optionsAllowEveryMethod: Fault = {
  name: 'options-allow-every-method',
  description:
    'Allow on OPTIONS is one fixed list for every path (GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS)',
  expectedCheck: 'allow_header_conformance',
  include: ['optionsUsers', 'listUsers'],
  create: () =>
    allow(
      (_res, req) => req.method === 'OPTIONS',
      () => ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    ),
};

export const unsupportedMethod404: Fault = {
  name: 'unsupported-method-404',
  description: 'a method the path does not support is answered 404 (no route for it), not 405',
  expectedCheck: 'unsupported_method',
  include: ['users'],
  create: () => ({
    response: (res, req) =>
      res.status === 405
        ? problemAnswer({ ...res, headers: omit(res.headers, 'allow') }, req, {
            kind: 'not-found',
            title: 'Resource not found',
            status: 404,
            detail: `No route for ${req.method} ${pathOf(req)}.`,
          })
        : res,
  }),
};

export const methodNotAllowedListsEvery: Fault = {
  name: 'method-not-allowed-lists-every',
  description: 'the Allow of a 405 is one fixed list of every method, the refused one included',
  expectedCheck: 'unsupported_method',
  include: ['users'],
  create: () =>
    allow(
      (res) => res.status === 405,
      () => ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    ),
};

export const headAnswers204: Fault = {
  name: 'head-answers-204',
  description: 'HEAD is answered 204 No Content, since it has no body (GET answers 200)',
  expectedCheck: 'head_matches_get',
  include: ['getUser'],
  create: () => ({
    response: (res, req) =>
      req.method === 'HEAD' && res.status === 200 ? { ...res, status: 204 } : res,
  }),
};

export const headWithoutContentType: Fault = {
  name: 'head-without-content-type',
  description: 'HEAD answers carry no Content-Type (it is set when a body is written)',
  expectedCheck: 'head_matches_get',
  include: ['getUser'],
  create: () => ({
    response: (res, req) =>
      req.method === 'HEAD' ? { ...res, headers: omit(res.headers, 'content-type') } : res,
  }),
};

/** The body of a request as JSON, or undefined when it is not well-formed. */
const wellFormed = (req: ProxyRequest) => req.body !== '' && parsed(req.body) !== undefined;

/** A 400 problem answered `status` with the title of `kind` instead, where `when` holds. */
const reanswer400 = (
  when: (res: ProxyResponse, req: ProxyRequest) => boolean,
  kind: string,
  title: string,
  status: number,
): FaultHooks => ({
  response: (res, req) =>
    res.status === 400 && isProblem(res) && when(res, req)
      ? problemAnswer(res, req, { kind, title, status, detail: 'The request was not processed.' })
      : res,
});

/** The pointers of a 400's errors. */
const pointers = (res: ProxyResponse): string[] => {
  const body = parsed(res.body);
  return isObject(body) && Array.isArray(body.errors)
    ? body.errors.map((e) => (isObject(e) ? String(e.pointer) : ''))
    : [];
};

export const malformedJson422: Fault = {
  name: 'malformed-json-422',
  description: 'a body that is not well-formed JSON is answered 422 (a parser error), not 400',
  expectedCheck: 'negative_data_rejection',
  include: ['createUser'],
  create: () =>
    reanswer400(
      (_res, req) => req.body !== '' && !wellFormed(req),
      'unprocessable',
      'Unprocessable entity',
      422,
    ),
};

export const bodyViolation422: Fault = {
  name: 'body-violation-422',
  description:
    'a well-formed body that breaks the schema is answered 422 (validation errors), not 400',
  expectedCheck: 'negative_data_rejection',
  include: ['createUser'],
  create: () =>
    reanswer400(
      (res, req) =>
        wellFormed(req) &&
        pointers(res).length > 0 &&
        pointers(res).every((p) => !/^#\/(query|path|header)\//.test(p)),
      'unprocessable',
      'Unprocessable entity',
      422,
    ),
};

export const invalidPagingDefaulted: Fault = {
  name: 'invalid-paging-defaulted',
  description:
    'page or size that is negative or not a number falls back to its default (200), not 400',
  expectedCheck: 'negative_data_rejection',
  include: ['listUsers'],
  create: () => ({
    request: (req) => {
      if (req.method !== 'GET' || pathOf(req) !== `${API}/users`) return req;
      const url = new URL(req.path, 'http://proxy');
      for (const name of ['page', 'size']) {
        const value = url.searchParams.get(name);
        if (value !== null && (Number.isNaN(Number(value)) || Number(value) < 0))
          url.searchParams.delete(name);
      }
      return { ...req, path: url.pathname + url.search };
    },
  }),
};

export const nonNumericId404: Fault = {
  name: 'non-numeric-id-404',
  description:
    'a user id that is not digits finds no route (a route of \\d+): /users/abc is 404, not 400',
  expectedCheck: 'negative_data_rejection',
  include: ['getUser'],
  create: () => ({
    response: (res, req) =>
      res.status === 400 && /^\/api\/v1\/users\/[^/]*[^0-9/][^/]*$/.test(pathOf(req))
        ? problemAnswer(res, req, {
            kind: 'not-found',
            title: 'Resource not found',
            status: 404,
            detail: `No route for ${pathOf(req)}.`,
          })
        : res,
  }),
};

/** Drops `member` from every problem body. */
const problemWithout = (member: string): FaultHooks => ({
  response: (res) =>
    isProblem(res)
      ? editJson(res, (p) => (isObject(p) ? omit(p as Record<string, string>, member) : p))
      : res,
});

export const problemWithoutType: Fault = {
  name: 'problem-without-type',
  description: 'problems carry no type (a hand-rolled {title, status, detail} error)',
  expectedCheck: 'problem_json',
  include: ['getUser'],
  create: () => problemWithout('type'),
};

export const problemWithoutTitle: Fault = {
  name: 'problem-without-title',
  description: 'problems carry no title',
  expectedCheck: 'problem_json',
  include: ['getUser'],
  create: () => problemWithout('title'),
};

export const problemWithoutDetail: Fault = {
  name: 'problem-without-detail',
  description: 'problems carry no detail (only the title)',
  expectedCheck: 'response_schema_conformance',
  include: ['getUser'],
  create: () => problemWithout('detail'),
};

export const problemWithoutInstance: Fault = {
  name: 'problem-without-instance',
  description: 'problems carry no instance',
  expectedCheck: 'response_schema_conformance',
  include: ['getUser'],
  create: () => problemWithout('instance'),
};

export const deepPageCrashes: Fault = {
  name: 'deep-page-crashes',
  description: 'GET /users of any page after the first fails with 500 (an offset computed wrong)',
  expectedCheck: 'not_a_server_error',
  include: ['listUsers'],
  create: () => ({
    response: (res, req) =>
      req.method === 'GET' &&
      pathOf(req) === `${API}/users` &&
      Number(queryOf(req).get('page') ?? 0) >= 1 &&
      res.status === 200
        ? problemAnswer(res, req, {
            kind: 'internal-error',
            title: 'Internal server error',
            status: 500,
            detail: 'OFFSET must not be negative',
          })
        : res,
  }),
};

export const deleteAnswers200: Fault = {
  name: 'delete-answers-200',
  description: 'DELETE answers 200 with an empty body, not 204',
  expectedCheck: 'status_code_conformance',
  include: ['users'],
  create: () => ({
    response: (res, req) =>
      req.method === 'DELETE' && res.status === 204 ? { ...res, status: 200 } : res,
  }),
};

export const jsonAsHal: Fault = {
  name: 'json-as-hal',
  description: 'successful JSON answers are labelled application/hal+json',
  expectedCheck: 'content_type_conformance',
  include: ['listCategories', 'getCategory'],
  create: () => ({
    response: (res) =>
      is2xx(res) && isJson(res)
        ? { ...res, headers: { ...res.headers, 'content-type': 'application/hal+json' } }
        : res,
  }),
};

const ORDER_BODY_PATH = /^\/api\/v1\/(users\/\d+\/)?orders(\/\d+)?$/;

export const orderIdAsString: Fault = {
  name: 'order-id-as-string',
  description: 'orders are answered with their int64 id as a string ("42")',
  expectedCheck: 'response_schema_conformance',
  include: ['orders', 'createUser'],
  create: () => ({
    response: (res, req) => {
      if (!is2xx(res) || !ORDER_BODY_PATH.test(pathOf(req))) return res;
      const stringify = (o: unknown) => (isObject(o) ? { ...o, id: String(o.id) } : o);
      return editJson(res, (body) => (Array.isArray(body) ? body.map(stringify) : stringify(body)));
    },
  }),
};

export const etagUnquoted: Fault = {
  name: 'etag-unquoted',
  description: 'ETags are sent without their quotes (a bare hash)',
  expectedCheck: 'response_headers_conformance',
  include: ['getUser'],
  create: () => ({
    response: (res) =>
      res.headers.etag
        ? {
            ...res,
            headers: { ...res.headers, etag: res.headers.etag.replace(/^(W\/)?"(.*)"$/, '$2') },
          }
        : res,
  }),
};

export const putRepeatConflicts: Fault = {
  name: 'put-repeat-conflicts',
  description:
    'a PUT that finds the resource already as sent answers 409 ("nothing to change"), so a retried PUT fails',
  expectedCheck: 'put_idempotent',
  include: ['users'],
  create: () => {
    const last = new Map<string, string>();
    return {
      response: (res, req) => {
        if (req.method !== 'PUT' || !is2xx(res)) return res;
        const key = pathOf(req);
        const repeated = last.get(key) === req.body;
        last.set(key, req.body);
        return repeated
          ? problemAnswer(res, req, {
              kind: 'conflict',
              title: 'Conflict',
              status: 409,
              detail: 'The resource already holds these values.',
            })
          : res;
      },
    };
  },
};

export const putRepeatNoContent: Fault = {
  name: 'put-repeat-no-content',
  description:
    'a PUT that finds the resource already as sent answers 204 without the representation ("nothing changed")',
  expectedCheck: 'put_idempotent',
  include: ['users'],
  create: () => {
    const last = new Map<string, string>();
    return {
      response: (res, req) => {
        if (req.method !== 'PUT' || !is2xx(res)) return res;
        const key = pathOf(req);
        const repeated = last.get(key) === req.body;
        last.set(key, req.body);
        return repeated
          ? { status: 204, headers: omit(res.headers, 'content-type', 'location'), body: '' }
          : res;
      },
    };
  },
};

export const problemTypeRelative: Fault = {
  name: 'problem-type-relative',
  description: 'problem types are relative references (/problems/not-found), not absolute URIs',
  expectedCheck: 'response_schema_conformance',
  include: ['getUser'],
  create: () => ({
    response: (res) =>
      isProblem(res)
        ? editJson(res, (p) =>
            isObject(p) && typeof p.type === 'string'
              ? { ...p, type: `/problems/${p.type.split(':').pop()}` }
              : p,
          )
        : res,
  }),
};

export const problemInstanceWithQuery: Fault = {
  name: 'problem-instance-with-query',
  description: 'the instance of a problem is the request target, query included',
  expectedCheck: 'response_schema_conformance',
  include: ['listUsers'],
  create: () => ({
    response: (res, req) =>
      isProblem(res) && req.path.includes('?')
        ? editJson(res, (p) =>
            isObject(p) && typeof p.instance === 'string'
              ? { ...p, instance: `${p.instance}${req.path.slice(req.path.indexOf('?'))}` }
              : p,
          )
        : res,
  }),
};

/** A `method` of a single user also writes a "last seen" change into the user. */
const recordsVisits = (method: string): FaultHooks => {
  let visits = 18;
  return {
    response: async (res, req, ctx) => {
      if (req.method === method && /^\/api\/v1\/users\/\d+$/.test(pathOf(req)) && is2xx(res))
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
};

export const headRecordsVisits: Fault = {
  name: 'head-records-visits',
  description:
    'HEAD of a user writes a "last seen" change into the user (age bumped); GET does not',
  expectedCheck: 'get_is_safe',
  include: ['getUser'],
  create: () => recordsVisits('HEAD'),
};

export const optionsRecordsVisits: Fault = {
  name: 'options-records-visits',
  description: 'OPTIONS of a user writes a "last seen" change into the user (age bumped)',
  expectedCheck: 'get_is_safe',
  include: ['getUser'],
  create: () => recordsVisits('OPTIONS'),
};

export const bodyWithoutContentTypeAccepted: Fault = {
  name: 'body-without-content-type-accepted',
  description:
    'a body sent without Content-Type is parsed as JSON all the same (201), not refused with 415',
  expectedCheck: 'negative_data_rejection',
  include: ['createUser'],
  create: () => ({
    request: (req) =>
      req.body !== '' && req.headers['content-type'] === undefined
        ? { ...req, headers: { ...req.headers, 'content-type': 'application/json' } }
        : req,
  }),
};

export const patch415WithoutAcceptPatch: Fault = {
  name: 'patch-415-without-accept-patch',
  description: "PATCH's 415 does not name the media types PATCH takes (no Accept-Patch)",
  expectedCheck: 'response_headers_conformance',
  include: ['updateUser', 'createUser'],
  create: () => ({
    response: (res, req) =>
      req.method === 'PATCH' && res.status === 415
        ? { ...res, headers: omit(res.headers, 'accept-patch') }
        : res,
  }),
};

/** Edits the body of every 400 problem that lists errors. */
const edit400 = (edit: (problem: Json, req: ProxyRequest) => Json): FaultHooks => ({
  response: (res, req) =>
    res.status === 400 && isProblem(res)
      ? editJson(res, (p) => (isObject(p) && Array.isArray(p.errors) ? edit(p, req) : p))
      : res,
});

export const errorsOmittedDropped: Fault = {
  name: 'errors-omitted-dropped',
  description:
    'a 400 cut at 100 entries does not say how many violations it left out (no errorsOmitted)',
  expectedCheck: 'bounded_errors',
  include: ['users'],
  create: () => edit400(({ errorsOmitted: _dropped, ...rest }) => rest),
};

export const errorsLastOnes: Fault = {
  name: 'errors-last-ones',
  description:
    'a 400 cut at 100 entries keeps the last violations found (a ring buffer), not the first ones',
  expectedCheck: 'bounded_errors',
  include: ['users'],
  create: () =>
    edit400((problem, req) => {
      const omitted = Number(problem.errorsOmitted ?? 0);
      const body = parsed(req.body);
      if (!(omitted > 0) || !isObject(body)) return problem;
      const errors = problem.errors as Json[];
      const names = Object.keys(body).filter((k) => k.startsWith('apikit-unknown-'));
      const last = names.slice(-errors.length).map((k) => ({
        pointer: `#/${k}`,
        detail: 'is not a known property',
      }));
      return { ...problem, errors: last };
    }),
};

export const problemEchoesRequest: Fault = {
  name: 'problem-echoes-request',
  description: 'a 400 echoes the rejected body back in the problem (for debugging), however large',
  expectedCheck: 'bounded_errors',
  include: ['users'],
  create: () => edit400((problem, req) => ({ ...problem, received: parsed(req.body) ?? req.body })),
};

export const acceptWildcardsRefused: Fault = {
  name: 'accept-wildcards-refused',
  description:
    'Accept is matched as a string: only one naming application/json is taken, so */* and application/* get 406',
  expectedCheck: 'accept_wildcards',
  include: ['listUsers'],
  create: () => ({
    request: (req, ctx) => {
      const accept = req.headers.accept;
      return accept && !/application\/(problem\+)?json/i.test(accept)
        ? ctx.forward({ ...req, headers: { ...req.headers, accept: 'text/html' } })
        : req;
    },
  }),
};

export const bodyPointersUnfragmented: Fault = {
  name: 'body-pointers-unfragmented',
  description:
    'errors point into the body with a plain JSON Pointer (/name), not the fragment form (#/name)',
  expectedCheck: 'validation_errors',
  include: ['createUser'],
  create: () =>
    edit400((problem) => ({
      ...problem,
      errors: (problem.errors as unknown[]).map((e) =>
        isObject(e) && typeof e.pointer === 'string' && !/^#\/(query|path|header)\//.test(e.pointer)
          ? { ...e, pointer: e.pointer.replace(/^#/, '') }
          : e,
      ),
    })),
};
