/**
 * Faults in conditional requests, validators and Idempotency-Key handling (decision 0090), and
 * the names a fuzz phase sends stored altered.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { omit, type ProxyRequest, type ProxyResponse } from './fault-proxy.js';
import {
  isObject,
  parsed,
  pathOf,
  queryOf,
  readBack,
  USER_PATH,
  userPut2xx,
} from './fault-helpers.js';
import type { Fault } from './faults.js';

const WRITES = ['PUT', 'PATCH', 'DELETE'];
const ORDER_PATH = /^\/api\/v1\/orders\/\d+$/;
const KEYED_PATH = /^\/api\/v1\/users(\/\d+\/orders)?$/;

export const ifModifiedSinceOverrules: Fault = {
  name: 'if-modified-since-overrules',
  description:
    'If-Modified-Since is judged although If-None-Match is present: a GET with both is 304 whenever the date matches, whatever the tag',
  expectedCheck: 'if_none_match_precedence',
  include: ['users'],
  create: () => ({
    request: (req) =>
      req.method === 'GET' && req.headers['if-modified-since'] && req.headers['if-none-match']
        ? { ...req, headers: omit(req.headers, 'if-none-match') }
        : req,
  }),
};

export const writeIgnoresIfNoneMatch: Fault = {
  name: 'write-ignores-if-none-match',
  description:
    'If-None-Match is ignored on PUT, PATCH and DELETE: If-None-Match: * on an existing user goes through',
  expectedCheck: 'if_none_match_write',
  include: ['users'],
  create: () => ({
    request: (req) =>
      WRITES.includes(req.method) ? { ...req, headers: omit(req.headers, 'if-none-match') } : req,
  }),
};

export const putIfMatchCreates: Fault = {
  name: 'put-if-match-creates',
  description: 'a PUT with If-Match at an absent user id creates the user (201) instead of 412',
  expectedCheck: 'put_if_match_absent',
  include: ['users'],
  create: () => ({
    request: async (req, ctx) => {
      if (req.method !== 'PUT' || !req.headers['if-match'] || !USER_PATH.test(pathOf(req)))
        return req;
      const current = await ctx.forward(readBack(req));
      return current.status === 404 ? { ...req, headers: omit(req.headers, 'if-match') } : req;
    },
  }),
};

export const putAnswersValidators: Fault = {
  name: 'put-answers-validators',
  description:
    "a PUT's 200 carries an ETag (no Last-Modified), though the stored user is not what was sent (RFC 9110 9.3.4)",
  expectedCheck: 'put_validators',
  include: ['users'],
  create: () => ({
    response: (res, req) =>
      userPut2xx(res, req)
        ? {
            ...res,
            // The ETag alone: put-answers-last-modified breaks the other clause (decision 0128).
            headers: { ...omit(res.headers, 'last-modified'), etag: `"put-${res.body.length}"` },
          }
        : res,
  }),
};

export const expandedOrderPlainEtag: Fault = {
  name: 'expanded-order-plain-etag',
  description:
    'an expanded order (GET /orders/{id}?expand=...) carries the ETag of the plain order, not its own',
  expectedCheck: 'expanded_validators',
  include: ['orders'],
  create: () => ({
    response: async (res, req, ctx) => {
      if (req.method !== 'GET' || res.status !== 200 || !ORDER_PATH.test(pathOf(req))) return res;
      if (!queryOf(req).has('expand')) return res;
      const plain = await ctx.forward({ ...req, path: pathOf(req) });
      const etag = plain.headers['etag'];
      return etag ? { ...res, headers: { ...res.headers, etag } } : res;
    },
  }),
};

export const inFlightKeyIgnored: Fault = {
  name: 'in-flight-key-ignored',
  description:
    'a slow first request (100 ms) with an Idempotency-Key does not guard its key: a request with the same key meanwhile is carried out again',
  expectedCheck: 'idempotency_key_in_flight',
  include: ['users', 'orders'],
  create: () => {
    const inFlight = new Map<string, ProxyRequest>();
    return {
      request: async (req) => {
        const key = req.headers['idempotency-key'];
        if (req.method !== 'POST' || !key || !KEYED_PATH.test(pathOf(req))) return req;
        const scope = `${req.headers['authorization'] ?? ''} ${req.path} ${key}`;
        if (inFlight.has(scope)) return { ...req, headers: omit(req.headers, 'idempotency-key') };
        inFlight.set(scope, req);
        await sleep(100);
        return req;
      },
      response: (res, req) => {
        for (const [scope, held] of inFlight) if (held === req) inFlight.delete(scope);
        return res;
      },
    };
  },
};

export const namesTitleCased: Fault = {
  name: 'names-title-cased',
  description:
    'names are stored "tidied" to title case (ada lovelace -> Ada Lovelace), not as sent: answers and reads agree with each other, not with the request',
  expectedCheck: 'fuzz_read_back',
  include: ['createUser', 'getUser', 'updateUser', 'replaceUser', 'listUsers'],
  fuzz: 20,
  create: () => ({
    request: (req) => {
      if (!['POST', 'PUT', 'PATCH'].includes(req.method)) return req;
      if (!/^\/api\/v1\/users(\/\d+)?$/.test(pathOf(req))) return req;
      const body = parsed(req.body);
      if (!isObject(body) || typeof body['name'] !== 'string') return req;
      const name = body['name'].replace(/\b[a-z]/g, (c) => c.toUpperCase());
      return name === body['name'] ? req : { ...req, body: JSON.stringify({ ...body, name }) };
    },
  }),
};

export const categoryListMisdated: Fault = {
  name: 'category-list-misdated',
  description:
    'GET /categories is dated an hour off the data set (local time written as GMT), while GET /roles and each category carry the right date',
  expectedCheck: 'data_set_dated',
  include: ['listRoles', 'listCategories'],
  create: () => ({
    response: (res, req) => {
      const date = res.headers['last-modified'];
      if (req.method !== 'GET' || pathOf(req) !== '/api/v1/categories' || !date) return res;
      const shifted = new Date(Date.parse(date) - 60 * 60 * 1000).toUTCString();
      return { ...res, headers: { ...res.headers, 'last-modified': shifted } };
    },
  }),
};

export const listsWithLastModified: Fault = {
  name: 'lists-with-last-modified',
  description:
    'GET /users (a page of users) carries Last-Modified, the newest updatedAt of the page, which the contract gives the catalogs only',
  expectedCheck: 'undated_lists',
  include: ['listUsers'],
  create: () => ({
    response: (res, req) =>
      req.method === 'GET' && res.status === 200 && pathOf(req) === '/api/v1/users'
        ? { ...res, headers: { ...res.headers, 'last-modified': new Date().toUTCString() } }
        : res,
  }),
};

export const idempotencyRemembers400: Fault = {
  name: 'idempotency-remembers-400',
  description:
    'the Idempotency-Key is claimed before validation: a 400 is remembered, and the same key with a valid body replays the 400',
  expectedCheck: 'idempotency_key_validation',
  include: ['users', 'orders'],
  create: () => {
    const refused = new Map<string, ProxyResponse>();
    const scope = (req: ProxyRequest) =>
      `${req.headers['authorization'] ?? ''} ${req.method} ${req.path} ${req.headers['idempotency-key'] ?? ''}`;
    return {
      request: (req) => (req.headers['idempotency-key'] && refused.get(scope(req))) || req,
      response: (res, req) => {
        if (req.headers['idempotency-key'] && res.status === 400) refused.set(scope(req), res);
        return res;
      },
    };
  },
};

export const idempotencyForgetsConflicts: Fault = {
  name: 'idempotency-forgets-conflicts',
  description:
    'a refusal is not remembered under its Idempotency-Key: the same key and body, once the conflict is gone, are carried out',
  expectedCheck: 'idempotency_key_refusals',
  include: ['users'],
  create: () => {
    const conflicted = new Set<string>();
    const scope = (req: ProxyRequest) =>
      `${req.headers['authorization'] ?? ''} ${req.method} ${req.path} ${req.headers['idempotency-key'] ?? ''}`;
    return {
      request: (req) =>
        req.headers['idempotency-key'] && conflicted.has(scope(req))
          ? { ...req, headers: omit(req.headers, 'idempotency-key') }
          : req,
      response: (res, req) => {
        if (req.headers['idempotency-key'] && res.status === 409) conflicted.add(scope(req));
        return res;
      },
    };
  },
};
