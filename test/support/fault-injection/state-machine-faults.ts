/** Faults in the order state machine: refused transitions allowed, or refused with another status. */
import { omit } from './fault-proxy.js';
import {
  editJson,
  is2xx,
  isObject,
  parsed,
  pathOf,
  problemAnswer,
  readBack,
} from './fault-helpers.js';
import type { Fault } from './faults.js';

const ORDER_CANCEL = /^\/api\/v1\/orders\/(\d+)\/cancel$/;
const USER_ORDER = /^\/api\/v1\/users\/\d+\/orders\/\d+$/;
const USER_ORDERS = /^\/api\/v1\/users\/\d+\/orders$/;
/** The operations a state machine walk of orders needs, to keep the run short. */
// createUser makes the user an order needs: a run calls nothing outside its scope (0096).
const ORDER_MACHINE = [
  'createUser',
  'createUserOrder',
  'getUserOrder',
  'updateUserOrder',
  'cancelOrder',
];

const isRefusedTransition = (status: number, body: string) =>
  status === 409 && /invalid-state-transition/.test(body);

export const shippedOrderCancellable: Fault = {
  name: 'shipped-order-cancellable',
  description:
    'POST /orders/{id}/cancel of a SHIPPED or DELIVERED order answers 200 with the order CANCELLED instead of 409',
  expectedCheck: 'state_transitions',
  include: ORDER_MACHINE,
  create: () => ({
    response: async (res, req, ctx) => {
      const id = ORDER_CANCEL.exec(pathOf(req))?.[1];
      if (req.method !== 'POST' || !id || !isRefusedTransition(res.status, res.body)) return res;
      const order = await ctx.forward({ ...readBack(req), path: `/api/v1/orders/${id}` });
      if (!is2xx(order)) return res;
      const answer = { ...order, headers: omit(order.headers, 'etag', 'last-modified') };
      return editJson(answer, (body) => ({ ...(body as object), status: 'CANCELLED' }));
    },
  }),
};

export const invalidTransition422: Fault = {
  name: 'invalid-transition-422',
  description:
    'a status change the order state machine does not allow (by PATCH or cancel) is 422 instead of 409',
  expectedCheck: 'state_transitions',
  include: ORDER_MACHINE,
  create: () => ({
    response: (res, req) =>
      (ORDER_CANCEL.test(pathOf(req)) || USER_ORDER.test(pathOf(req))) &&
      isRefusedTransition(res.status, res.body)
        ? problemAnswer(res, req, {
            kind: 'invalid-state-transition',
            title: 'Invalid state transition',
            status: 422,
            detail: 'The order cannot move to that status.',
          })
        : res,
  }),
};

export const orderCancelRefused409: Fault = {
  name: 'order-cancel-refused-409',
  description:
    'POST /orders/{id}/cancel of a PENDING or PAID order is refused with 409 instead of cancelling it',
  expectedCheck: 'state_transitions',
  include: ORDER_MACHINE,
  create: () => ({
    request: async (req, ctx) => {
      const id = ORDER_CANCEL.exec(pathOf(req))?.[1];
      if (req.method !== 'POST' || !id) return req;
      const order = await ctx.forward({ ...readBack(req), path: `/api/v1/orders/${id}` });
      const status = is2xx(order) ? (parsed(order.body) as { status?: unknown }).status : undefined;
      return status === 'PENDING' || status === 'PAID'
        ? problemAnswer(order, req, {
            kind: 'invalid-state-transition',
            title: 'Invalid state transition',
            status: 409,
            detail: `An order in status ${status} cannot be cancelled.`,
          })
        : req;
    },
  }),
};

export const orderPatchStatusIgnored: Fault = {
  name: 'order-patch-status-ignored',
  description:
    'PATCH of an order ignores status: 200 with the other fields written and the status as it was',
  expectedCheck: 'state_transitions',
  include: ORDER_MACHINE,
  create: () => ({
    request: (req) => {
      const body = parsed(req.body);
      if (req.method !== 'PATCH' || !USER_ORDER.test(pathOf(req)) || !isObject(body)) return req;
      if (!('status' in body)) return req;
      const { status: _ignored, ...rest } = body;
      return { ...req, body: JSON.stringify(rest) };
    },
  }),
};

export const newOrderPaid: Fault = {
  name: 'new-order-paid',
  description: 'POST /users/{id}/orders answers 201 with the new order PAID, not PENDING',
  expectedCheck: 'state_transitions',
  include: ORDER_MACHINE,
  create: () => ({
    response: (res, req) =>
      req.method === 'POST' && USER_ORDERS.test(pathOf(req)) && res.status === 201
        ? editJson(res, (body) => ({ ...(body as object), status: 'PAID' }))
        : res,
  }),
};

export const sameStatus409: Fault = {
  name: 'same-status-409',
  description:
    'moving an order to the status it has (a PATCH of its status, cancelling a CANCELLED order) is 409 instead of a 200 no-op',
  expectedCheck: 'state_transitions',
  include: ORDER_MACHINE,
  create: () => ({
    request: async (req, ctx) => {
      const cancelled = ORDER_CANCEL.exec(pathOf(req))?.[1];
      const sent = parsed(req.body);
      const wanted = cancelled ? 'CANCELLED' : isObject(sent) ? sent.status : undefined;
      const patch = req.method === 'PATCH' && USER_ORDER.test(pathOf(req));
      if (!(req.method === 'POST' && cancelled) && !(patch && wanted !== undefined)) return req;
      const path = cancelled ? `/api/v1/orders/${cancelled}` : pathOf(req);
      const order = await ctx.forward({ ...readBack(req), path });
      const status = is2xx(order) ? (parsed(order.body) as { status?: unknown }).status : undefined;
      return status === wanted
        ? problemAnswer(order, req, {
            kind: 'invalid-state-transition',
            title: 'Invalid state transition',
            status: 409,
            detail: `The order is already ${String(status)}.`,
          })
        : req;
    },
  }),
};
