/** Faults of the orders of a user: filters, absent owners and orders, Location. */
import { omit } from './fault-proxy.js';
import {
  API,
  isObject,
  parsed,
  pathOf,
  problemAnswer,
  queryOf,
  readBack,
  withoutQuery,
} from './fault-helpers.js';
import type { Fault } from './faults.js';

const USER_ORDERS = /^\/api\/v1\/users\/\d+\/orders$/;
const ORDER_STATUSES = new Set(['PENDING', 'PAID', 'SHIPPED', 'DELIVERED', 'CANCELLED']);
const USER_ORDER = /^\/api\/v1\/users\/\d+\/orders\/\d+$/;

export const orderStatusFilterIgnored: Fault = {
  name: 'order-status-filter-ignored',
  description: 'GET /users/{id}/orders ignores the status filter and lists every order of the user',
  expectedCheck: 'filter_honoured',
  include: ['listUserOrders'],
  create: () => ({
    // Validated first (an unknown status is still 400), then not applied.
    request: (req) =>
      req.method === 'GET' &&
      USER_ORDERS.test(pathOf(req)) &&
      ORDER_STATUSES.has(queryOf(req).get('status') ?? '')
        ? withoutQuery(req, 'status')
        : req,
  }),
};

export const orderForMissingUser422: Fault = {
  name: 'order-for-missing-user-422',
  description:
    'POST /users/{id}/orders for a user that does not exist is 422 (a dangling reference), not 404',
  expectedCheck: 'absent_resource',
  include: ['createUserOrder', 'createUser'],
  create: () => ({
    response: (res, req) =>
      req.method === 'POST' && USER_ORDERS.test(pathOf(req)) && res.status === 404
        ? problemAnswer(res, req, {
            kind: 'unprocessable',
            title: 'Unprocessable content',
            status: 422,
            detail: 'The order refers to a user that does not exist.',
          })
        : res,
  }),
};

export const absentOrderPut403: Fault = {
  name: 'absent-order-put-403',
  description:
    'PUT of an absent order is 403 (the ownership test finds no order of the caller), not 404',
  expectedCheck: 'absent_resource',
  include: ['replaceUserOrder', 'createUserOrder', 'createUser'],
  create: () => ({
    response: (res, req) =>
      req.method === 'PUT' && USER_ORDER.test(pathOf(req)) && res.status === 404
        ? problemAnswer(res, req, {
            kind: 'forbidden',
            title: 'Forbidden',
            status: 403,
            detail: 'This order is not yours.',
          })
        : res,
  }),
};

export const orderLocationDropped: Fault = {
  name: 'order-location-dropped',
  description: 'POST /users/{id}/orders answers 201 without Location',
  expectedCheck: 'response_headers_conformance',
  include: ['createUserOrder', 'createUser'],
  create: () => ({
    response: (res, req) =>
      req.method === 'POST' && USER_ORDERS.test(pathOf(req)) && res.status === 201
        ? { ...res, headers: omit(res.headers, 'location') }
        : res,
  }),
};

export const orderSecondDelete204: Fault = {
  name: 'order-second-delete-204',
  description: 'DELETE of an absent order answers 204 instead of 404',
  expectedCheck: 'delete_twice',
  include: ['deleteUserOrder', 'createUserOrder', 'createUser'],
  create: () => ({
    response: (res, req) =>
      req.method === 'DELETE' && USER_ORDER.test(pathOf(req)) && res.status === 404
        ? { status: 204, headers: omit(res.headers, 'content-type'), body: '' }
        : res,
  }),
};

/** PATCH members that only a PENDING order may change (x-apikit-writable-in). */
const PENDING_ONLY = ['product', 'categoryId'];

export const patchJudgedAfter: Fault = {
  name: 'patch-judged-after',
  description:
    'a PATCH of an order is judged on the status it sets, not the one the order has: PENDING -> PAID with a new product is refused 409 as if already PAID',
  expectedCheck: 'judged_on_state_before',
  include: ['createUser', 'getUser', 'createUserOrder', 'getUserOrder', 'updateUserOrder'],
  create: () => ({
    request: async (req, ctx) => {
      if (req.method !== 'PATCH' || !USER_ORDER.test(pathOf(req))) return req;
      const body = parsed(req.body);
      const moves =
        isObject(body) &&
        typeof body.status === 'string' &&
        body.status !== 'PENDING' &&
        ORDER_STATUSES.has(body.status);
      if (!moves || !PENDING_ONLY.some((name) => name in body)) return req;
      const like = await ctx.forward(readBack(req));
      return problemAnswer(like, req, {
        kind: 'conflict',
        title: 'Conflict',
        status: 409,
        detail: `Order is ${String(body.status)}; only a PENDING order can be changed this way.`,
      });
    },
  }),
};
