/**
 * Writes whose answers say one thing and whose effect another (decision 0125): each answer is
 * the one a faithful server gives, so only reading the resource back after the write shows it.
 */
import { isObject, parsed, pathOf, readBack } from './fault-helpers.js';
import { omit, type ProxyRequest } from './fault-proxy.js';
import type { Fault } from './faults.js';

const USER_ORDER = /^\/api\/v1\/users\/\d+\/orders\/\d+$/;
const USER_ORDERS = /^\/api\/v1\/users\/\d+\/orders$/;
const ok = (status: number) => status >= 200 && status < 300;

/** The same request with `body`, sent again without its precondition (the state moved on). */
const resent = (req: ProxyRequest, body: unknown): ProxyRequest => ({
  ...req,
  headers: omit(req.headers, 'if-match', 'idempotency-key'),
  body: JSON.stringify(body),
});

export const orderPatchNotStored: Fault = {
  name: 'order-patch-not-stored',
  description:
    'PATCH of an order answers 200 with the changed order, then the change is rolled back (the members sent are patched back to their old values): the answer claims a write that did not stay',
  expectedCheck: 'writes_read_back',
  include: ['updateUserOrder', 'getUserOrder', 'createUserOrder', 'createUser'],
  create: () => ({
    request: async (req, ctx) => {
      const sent = parsed(req.body);
      if (req.method !== 'PATCH' || !USER_ORDER.test(pathOf(req)) || !isObject(sent)) return req;
      const before = parsed((await ctx.forward(readBack(req))).body);
      const answer = await ctx.forward(req);
      if (!ok(answer.status) || !isObject(before)) return answer;
      const undo = Object.fromEntries(Object.keys(sent).map((k) => [k, before[k] ?? null]));
      await ctx.forward(resent(req, undo));
      return answer;
    },
  }),
};

export const orderPutStoresOther: Fault = {
  name: 'order-put-stores-other',
  description:
    'PUT of an order stores another product than sent (its last character dropped) and answers the one sent: the answer and the stored order differ',
  expectedCheck: 'writes_read_back',
  include: ['replaceUserOrder', 'getUserOrder', 'createUserOrder', 'createUser'],
  create: () => ({
    request: async (req, ctx) => {
      const sent = parsed(req.body);
      if (req.method !== 'PUT' || !USER_ORDER.test(pathOf(req)) || !isObject(sent)) return req;
      const asked = sent.product;
      if (typeof asked !== 'string' || asked.length < 2) return req;
      const stored = await ctx.forward({
        ...req,
        body: JSON.stringify({ ...sent, product: asked.slice(0, -1) }),
      });
      // The other value refused: the write is made as asked, faithfully.
      if (!ok(stored.status)) return req;
      const answer = parsed(stored.body);
      if (!isObject(answer)) return stored;
      return { ...stored, body: JSON.stringify({ ...answer, product: asked }) };
    },
  }),
};

export const orderCreatedTwice: Fault = {
  name: 'order-created-twice',
  description:
    'POST /users/{id}/orders creates the order twice and answers the first: a second order nobody asked for, with the next id',
  expectedCheck: 'writes_read_back',
  include: ['createUserOrder', 'listUserOrders', 'getUserOrder', 'createUser'],
  create: () => ({
    request: async (req, ctx) => {
      if (req.method !== 'POST' || !USER_ORDERS.test(pathOf(req))) return req;
      const first = await ctx.forward(req);
      // With an Idempotency-Key the second is a replay that creates nothing, as it should.
      if (first.status === 201) await ctx.forward(req);
      return first;
    },
  }),
};
