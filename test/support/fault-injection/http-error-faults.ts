/**
 * Faults in what the contract says of request bodies and error answers beyond their schemas:
 * the charset, bodiless actions, every violation named by its pointer, one title per type, the
 * bound of a 400's errors, the 431 of an oversized header block.
 */
import { editJson, isObject, isProblem, parsed, pathOf, problemAnswer } from './fault-helpers.js';
import type { FaultHooks, ProxyRequest } from './fault-proxy.js';
import type { Fault } from './faults.js';

const charsetOf = (req: ProxyRequest) =>
  /;\s*charset="?([^";\s]+)/i.exec(req.headers['content-type'] ?? '')?.[1]?.toLowerCase();

export const latin1CharsetAccepted: Fault = {
  name: 'latin1-charset-accepted',
  description: 'the charset parameter is ignored: a body declared ISO-8859-1 is read as UTF-8',
  expectedCheck: 'charset_parameter',
  include: ['users'],
  create: () => ({
    request: (req) =>
      charsetOf(req) && charsetOf(req) !== 'utf-8'
        ? { ...req, headers: { ...req.headers, 'content-type': 'application/json' } }
        : req,
  }),
};

export const utf8CharsetRefused: Fault = {
  name: 'utf8-charset-refused',
  description: 'Content-Type is compared whole: application/json; charset=utf-8 is 415',
  expectedCheck: 'charset_parameter',
  include: ['users'],
  create: () => ({
    request: (req) =>
      charsetOf(req) === 'utf-8' && req.body
        ? problemAnswer({ status: 415, headers: {}, body: '' }, req, {
            kind: 'unsupported-media-type',
            title: 'Unsupported media type',
            status: 415,
            detail: `Content-Type ${req.headers['content-type']} is not supported.`,
          })
        : req,
  }),
};

/** POST actions on a resource (activate, cancel, block, unblock), whose body must be empty or {}. */
const ACTION = /^\/api\/v1\/(?:users|orders|admin\/users)\/\d+\/(?:activate|cancel|block|unblock)$/;

export const actionBodyIgnored: Fault = {
  name: 'action-body-ignored',
  description: 'bodiless actions never read their body: {"status":"ACTIVE"} to /activate is taken',
  expectedCheck: 'negative_data_rejection',
  include: ['users', 'orders'],
  create: () => ({
    request: (req) =>
      req.method === 'POST' && ACTION.test(pathOf(req)) && req.body.trim() !== ''
        ? { ...req, body: '{}' }
        : req,
  }),
};

export const actionEmptyObjectRefused: Fault = {
  name: 'action-empty-object-refused',
  description: 'bodiless actions take no body at all: {} to /activate is 400',
  expectedCheck: 'positive_data_acceptance',
  include: ['users', 'orders'],
  create: () => ({
    request: (req) =>
      req.method === 'POST' && ACTION.test(pathOf(req)) && req.body.trim() === '{}'
        ? problemAnswer({ status: 400, headers: {}, body: '' }, req, {
            kind: 'validation-failed',
            title: 'Request validation failed',
            status: 400,
            detail: 'This action takes no body.',
          })
        : req,
  }),
};

/** Each 400's errors reduced by `edit`. */
function editErrors(edit: (errors: unknown[]) => unknown[]): FaultHooks {
  return {
    response: (res) =>
      res.status === 400 && isProblem(res)
        ? editJson(res, (body) =>
            isObject(body) && Array.isArray(body.errors)
              ? { ...body, errors: edit(body.errors) }
              : body,
          )
        : res,
  };
}

export const firstViolationOnly: Fault = {
  name: 'first-violation-only',
  description: 'validation stops at the first violation: a 400 lists one error whatever was broken',
  expectedCheck: 'validation_errors',
  include: ['users'],
  create: () => editErrors((errors) => errors.slice(0, 1)),
};

export const pointersWithoutLocation: Fault = {
  name: 'pointers-without-location',
  description: 'query and path errors point at the bare name: #/size, not #/query/size',
  expectedCheck: 'validation_errors',
  include: ['users'],
  create: () =>
    editErrors((errors) =>
      errors.map((e) =>
        isObject(e) && typeof e.pointer === 'string'
          ? { ...e, pointer: e.pointer.replace(/^#\/(?:query|path)\//, '#/') }
          : e,
      ),
    ),
};

const REASON: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  412: 'Precondition Failed',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
};

export const titleIsReasonPhrase: Fault = {
  name: 'title-is-reason-phrase',
  description: "problem titles are the status's reason phrase (Not Found), not the type's title",
  expectedCheck: 'problem_type_title',
  include: ['users'],
  create: () => ({
    response: (res) =>
      isProblem(res) && REASON[res.status]
        ? editJson(res, (body) => (isObject(body) ? { ...body, title: REASON[res.status] } : body))
        : res,
  }),
};

/** The unknown properties of a request's JSON body not among `listed` pointers, last first. */
function unlisted(req: ProxyRequest, listed: Set<unknown>): string[] {
  const body = parsed(req.body);
  if (!isObject(body)) return [];
  const escape = (key: string) => '#/' + key.replace(/~/g, '~0').replace(/\//g, '~1');
  return Object.keys(body)
    .map(escape)
    .filter((pointer) => !listed.has(pointer))
    .reverse();
}

export const errorsUnbounded: Fault = {
  name: 'errors-unbounded',
  description:
    'a 400 lists every violation however many: 8,000 unknown properties, 8,000 entries (issue 34)',
  expectedCheck: 'bounded_errors',
  include: ['users'],
  // Rebuilt from the request the way an unbounded server lists them: the entries the server
  // left out are the body's last unknown properties, one entry each.
  create: () => ({
    response: (res, req) =>
      res.status === 400 && isProblem(res)
        ? editJson(res, (body) => {
            if (!isObject(body) || !Array.isArray(body.errors)) return body;
            const { errorsOmitted, ...rest } = body;
            const omitted = typeof errorsOmitted === 'number' ? errorsOmitted : 0;
            const listed = new Set(body.errors.map((e) => (isObject(e) ? e.pointer : undefined)));
            const more = unlisted(req, listed)
              .slice(0, omitted)
              .reverse()
              .map((pointer) => ({ pointer, detail: 'is not a known property' }));
            return { ...rest, errors: [...body.errors, ...more] };
          })
        : res,
  }),
};

export const longPointerEchoed: Fault = {
  name: 'long-pointer-echoed',
  description: 'an unknown property is echoed whole in its pointer, however long its name',
  expectedCheck: 'bounded_errors',
  include: ['users'],
  create: () => ({
    response: (res, req) =>
      res.status === 400 && isProblem(res)
        ? editJson(res, (body) => {
            if (!isObject(body) || !Array.isArray(body.errors)) return body;
            const names = unlisted(req, new Set());
            const whole = (pointer: unknown) =>
              typeof pointer === 'string' && pointer.endsWith('…')
                ? (names.find((n) => n.startsWith(pointer.slice(0, -1))) ?? pointer)
                : pointer;
            return {
              ...body,
              errors: body.errors.map((e) =>
                isObject(e) ? { ...e, pointer: whole(e.pointer) } : e,
              ),
            };
          })
        : res,
  }),
};

/** Node's default limit of a request line and headers, which the real server answers 431. */
const HEADER_LIMIT = 16 * 1024;

export const headerOverflow400: Fault = {
  name: 'header-overflow-400',
  description:
    "an oversized header block is the parser's plain 400 validation failure, not 431 (issue 34)",
  expectedCheck: 'header_limit',
  include: ['users'],
  create: () => ({
    request: (req) =>
      Object.entries(req.headers).reduce((n, [k, v]) => n + k.length + v.length + 4, 0) >
      HEADER_LIMIT
        ? problemAnswer({ status: 400, headers: {}, body: '' }, req, {
            kind: 'validation-failed',
            title: 'Request validation failed',
            status: 400,
            detail: 'The request is not valid HTTP/1.1',
          })
        : req,
  }),
};
