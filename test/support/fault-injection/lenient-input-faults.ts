/** Faults of lenient input handling: values the contract refuses, taken anyway. */
import { omit, type ProxyRequest, type ProxyResponse } from './fault-proxy.js';
import { API, USER_PATH, isObject, parsed, pathOf, type Json } from './fault-helpers.js';
import type { Fault } from './faults.js';

/** Rewrites the JSON object body of the requests `when` picks; other bodies pass as sent. */
const editBody =
  (when: (req: ProxyRequest) => boolean, edit: (body: Json) => Json) => (req: ProxyRequest) => {
    const body = parsed(req.body);
    return when(req) && isObject(body) ? { ...req, body: JSON.stringify(edit(body)) } : req;
  };

export const longIdempotencyKeyIgnored: Fault = {
  name: 'long-idempotency-key-ignored',
  description:
    'an Idempotency-Key over 255 characters is dropped silently (the POST proceeds) instead of 400',
  expectedCheck: 'negative_data_rejection',
  include: ['createUser'],
  create: () => ({
    request: (req) =>
      (req.headers['idempotency-key'] ?? '').length > 255
        ? { ...req, headers: omit(req.headers, 'idempotency-key') }
        : req,
  }),
};

export const unknownExpandIgnored: Fault = {
  name: 'unknown-expand-ignored',
  description: 'GET /orders/{id} skips expand names it does not know instead of answering 400',
  expectedCheck: 'negative_data_rejection',
  include: ['getOrder'],
  create: () => ({
    request: (req) => {
      const url = new URL(req.path, 'http://proxy');
      const expand = url.searchParams.get('expand');
      if (req.method !== 'GET' || !url.pathname.startsWith(`${API}/orders/`) || expand === null)
        return req;
      const known = expand.split(',').filter((n) => n === 'user' || n === 'items');
      if (known.length > 0) url.searchParams.set('expand', known.join(','));
      else url.searchParams.delete('expand');
      return { ...req, path: url.pathname + url.search };
    },
  }),
};

export const pathIdParseInt: Fault = {
  name: 'path-id-parse-int',
  description:
    'the user id of a path is read with parseInt: /users/1.5 and /users/1abc are user 1, not 400',
  expectedCheck: 'negative_data_rejection',
  include: ['getUser'],
  create: () => ({
    request: (req) => {
      const url = new URL(req.path, 'http://proxy');
      const match = /^(\/api\/v1\/users\/)([^/]+)$/.exec(url.pathname);
      const id = match ? Number.parseInt(match[2]!, 10) : NaN;
      if (!match || !(id > 0) || String(id) === match[2]) return req;
      return { ...req, path: `${match[1]}${id}${url.search}` };
    },
  }),
};

export const nullNameAsAbsent: Fault = {
  name: 'null-name-as-absent',
  description: 'PATCH of a user takes name: null or email: null as "not sent" (200), not 400',
  expectedCheck: 'negative_data_rejection',
  include: ['updateUser', 'createUser'],
  create: () => ({
    request: editBody(
      (req) => req.method === 'PATCH' && USER_PATH.test(pathOf(req)),
      (body) =>
        Object.fromEntries(
          Object.entries(body).filter(([k, v]) => !(v === null && ['name', 'email'].includes(k))),
        ),
    ),
  }),
};

export const loneSurrogateReplaced: Fault = {
  name: 'lone-surrogate-replaced',
  description:
    'a lone surrogate in a JSON string is decoded leniently into U+FFFD and stored, not refused with 400',
  expectedCheck: 'negative_data_rejection',
  include: ['createUser'],
  create: () => ({
    request: (req) => {
      const lone =
        /\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F])|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}/g;
      return lone.test(req.body) ? { ...req, body: req.body.replace(lone, '\\ufffd') } : req;
    },
  }),
};

export const orderUnknownPropertiesDropped: Fault = {
  name: 'order-unknown-properties-dropped',
  description: 'POST /users/{id}/orders drops body properties it does not know (201), not 400',
  expectedCheck: 'negative_data_rejection',
  include: ['createUserOrder', 'createUser'],
  create: () => ({
    request: editBody(
      (req) =>
        req.method === 'POST' &&
        /^\/api\/v1\/users\/\d+\/orders$/.test(pathOf(req)) &&
        Buffer.byteLength(req.body) <= 100 * 1024,
      (body) =>
        Object.fromEntries(
          Object.entries(body).filter(([k]) => ['product', 'categoryId', 'items'].includes(k)),
        ),
    ),
  }),
};

export const longEmailTruncated: Fault = {
  name: 'long-email-truncated',
  description: 'an email over 254 characters is cut to 254 and stored (201), not refused with 400',
  expectedCheck: 'negative_data_rejection',
  include: ['createUser'],
  create: () => ({
    request: editBody(
      (req) => req.method === 'POST' && pathOf(req) === `${API}/users`,
      (body) =>
        typeof body.email === 'string' && body.email.length > 254
          ? { ...body, email: body.email.slice(-254) }
          : body,
    ),
  }),
};

export const idempotencyReplayIgnoresBody: Fault = {
  name: 'idempotency-replay-ignores-body',
  description:
    'a POST reusing an Idempotency-Key with another body replays the first answer, not 422',
  expectedCheck: 'idempotency_key_replay',
  include: ['createUser'],
  create: () => {
    const first = new Map<string, ProxyResponse>();
    return {
      response: (res, req) => {
        const key = req.headers['idempotency-key'];
        if (req.method !== 'POST' || !key) return res;
        const scoped = `${req.headers.authorization ?? ''} ${pathOf(req)} ${key}`;
        if (res.status >= 200 && res.status < 300 && !first.has(scoped)) first.set(scoped, res);
        return res.status === 422 ? (first.get(scoped) ?? res) : res;
      },
    };
  },
};
