/**
 * Faults in what goes with a deleted resource's order items: a user's DELETE, or an order's,
 * that leaves the items readable at GET /order-items/{id}. Caught by delete_cascade
 * (x-apikit-cascade, with `items: true` on the order's DELETE).
 */
import { API, isObject, parsed, pathOf, readBack } from './fault-helpers.js';
import type { FaultContext, ProxyRequest, ProxyResponse } from './fault-proxy.js';
import type { Fault } from './faults.js';

const USER = /^\/api\/v1\/users\/(\d+)$/;
const ORDER = /^\/api\/v1\/users\/\d+\/orders\/(\d+)$/;

/** The GETs of a request's read-back, as the admin (who may read every order). */
async function adminRead(req: ProxyRequest, ctx: FaultContext): Promise<ProxyRequest> {
  const read = readBack(req);
  return { ...read, headers: { ...read.headers, authorization: await ctx.adminAuthorization() } };
}

/** Each item of order `orderId`, read at its own GET before it goes, kept by path. */
async function keepItems(
  ctx: FaultContext,
  read: ProxyRequest,
  orderId: string,
  kept: Map<string, ProxyResponse>,
): Promise<void> {
  const full = await ctx.forward({ ...read, path: `${API}/orders/${orderId}?expand=items` });
  const body = parsed(full.body);
  const items = isObject(body) && Array.isArray(body.items) ? body.items.filter(isObject) : [];
  for (const item of items) {
    const path = `${API}/order-items/${String(item.id)}`;
    const one = await ctx.forward({ ...read, path });
    if (one.status === 200) kept.set(path, one);
  }
}

/** An item kept before its DELETE answers in place of the 404 that reading it now gets. */
const replayKept = (kept: Map<string, ProxyResponse>) => (res: ProxyResponse, req: ProxyRequest) =>
  req.method === 'GET' && res.status === 404 ? (kept.get(pathOf(req)) ?? res) : res;

export const deleteKeepsOrderItems: Fault = {
  name: 'delete-keeps-order-items',
  description:
    "DELETE /users/{id} deletes the user's orders but not their items: GET /order-items/{id} still answers 200",
  expectedCheck: 'delete_cascade',
  include: [
    'createUser',
    'getUser',
    'deleteUser',
    'createUserOrder',
    'getUserOrder',
    'getOrder',
    'getOrderItem',
  ],
  create: () => {
    const kept = new Map<string, ProxyResponse>();
    return {
      request: async (req, ctx) => {
        const id = USER.exec(pathOf(req))?.[1];
        if (req.method !== 'DELETE' || !id) return req;
        const read = await adminRead(req, ctx);
        const list = await ctx.forward({ ...read, path: `${API}/users/${id}/orders` });
        const orders = list.status === 200 ? parsed(list.body) : undefined;
        for (const order of Array.isArray(orders) ? orders.filter(isObject) : [])
          await keepItems(ctx, read, String(order.id), kept);
        return req;
      },
      response: replayKept(kept),
    };
  },
};

export const orderDeleteKeepsItems: Fault = {
  name: 'order-delete-keeps-items',
  description:
    'DELETE /users/{userId}/orders/{orderId} deletes the order but not its items: GET /order-items/{id} still answers 200',
  expectedCheck: 'delete_cascade',
  include: [
    'createUser',
    'getUser',
    'createUserOrder',
    'getUserOrder',
    'getOrder',
    'getOrderItem',
    'deleteUserOrder',
  ],
  create: () => {
    const kept = new Map<string, ProxyResponse>();
    return {
      request: async (req, ctx) => {
        const id = ORDER.exec(pathOf(req))?.[1];
        if (req.method === 'DELETE' && id)
          await keepItems(ctx, await adminRead(req, ctx), id, kept);
        return req;
      },
      response: replayKept(kept),
    };
  },
};
