/**
 * Faults of orders under their user, of list order and of the fixed catalog (decision 0091):
 * blocked owners, unknown categories, writes after PENDING, replacing items, the owner in the
 * path, items naming their order, sorting, plain arrays by id, categories.
 */
import { omit, type FaultContext, type ProxyRequest, type ProxyResponse } from './fault-proxy.js';
import {
  API,
  editJson,
  is2xx,
  isObject,
  parsed,
  pathOf,
  queryOf,
  readBack,
} from './fault-helpers.js';
import { act } from './user-lifecycle-faults.js';
import type { Fault } from './faults.js';

const USER_ORDERS = /^\/api\/v1\/users\/(\d+)\/orders$/;
const USER_ORDER = /^\/api\/v1\/users\/(\d+)\/orders\/(\d+)$/;
const ORDER = /^\/api\/v1\/orders\/(\d+)$/;
const problemKind = (res: ProxyResponse): unknown =>
  (parsed(res.body) as { type?: unknown } | undefined)?.type;

/** The request again, as it was sent, with another body or path. */
const again = (ctx: FaultContext, req: ProxyRequest, change: Partial<ProxyRequest>) =>
  ctx.forward({ ...req, ...change });

export const blockedUserOrderCreated: Fault = {
  name: 'blocked-user-order-created',
  description:
    'POST /users/{id}/orders for a BLOCKED user creates the order (201), not 409: the owner is unblocked, the order placed, the owner blocked again',
  expectedCheck: 'parent_states',
  include: ['createUserOrder', 'createUser', 'blockUser', 'unblockUser'],
  create: () => ({
    response: async (res, req, ctx) => {
      const id = USER_ORDERS.exec(pathOf(req))?.[1];
      if (req.method !== 'POST' || !id || res.status !== 409) return res;
      if (String(problemKind(res)).includes('idempotency')) return res;
      await act(ctx, req, 'unblock', id);
      const placed = await again(ctx, req, {});
      await act(ctx, req, 'block', id);
      return placed;
    },
  }),
};

export const unknownCategoryAccepted: Fault = {
  name: 'unknown-category-accepted',
  description:
    'POST /users/{id}/orders with a categoryId the catalog lacks places the order in category 1, not 422',
  expectedCheck: 'unknown_references',
  include: ['createUserOrder', 'listCategories', 'createUser'],
  create: () => ({
    response: (res, req, ctx) => {
      const body = parsed(req.body);
      if (req.method !== 'POST' || !USER_ORDERS.test(pathOf(req)) || res.status !== 422) return res;
      if (!String(problemKind(res)).includes('unknown-reference') || !isObject(body)) return res;
      return again(ctx, req, { body: JSON.stringify({ ...body, categoryId: 1 }) });
    },
  }),
};

/** A PUT or PATCH of an order refused as no longer PENDING answers 200 with the order as it is. */
function acceptedAfterPending(method: 'PUT' | 'PATCH', name: string, op: string): Fault {
  return {
    name,
    description: `${method} of an order's fields once it has left PENDING answers 200 (changing nothing), not 409`,
    expectedCheck: 'guarded_writes',
    // The user, the order and its read: a run calls nothing outside its scope (decision 0096).
    include: ['createUser', 'createUserOrder', 'getUserOrder', 'updateUserOrder', op],
    create: () => ({
      response: async (res, req, ctx) => {
        if (req.method !== method || !USER_ORDER.test(pathOf(req)) || res.status !== 409)
          return res;
        const body = parsed(req.body);
        if (isObject(body) && 'status' in body) return res;
        const current = await ctx.forward(readBack(req));
        return is2xx(current) ? { ...current, status: 200 } : res;
      },
    }),
  };
}
export const orderPatchAfterPending = acceptedAfterPending(
  'PATCH',
  'order-patch-after-pending-200',
  'updateUserOrder',
);
export const orderPutAfterPending = acceptedAfterPending(
  'PUT',
  'order-put-after-pending-200',
  'replaceUserOrder',
);

export const putKeepsItems: Fault = {
  name: 'put-keeps-items',
  description: 'PUT of an order without items keeps the items it had (a partial update), not []',
  expectedCheck: 'embedded_items',
  include: ['createUserOrder', 'replaceUserOrder', 'createUser', 'getOrder', 'getOrderItem'],
  create: () => ({
    request: async (req, ctx) => {
      const match = USER_ORDER.exec(pathOf(req));
      const body = parsed(req.body);
      if (req.method !== 'PUT' || !match || !isObject(body) || 'items' in body) return req;
      const read = await ctx.forward({
        ...readBack(req),
        path: `${API}/orders/${match[2]}?expand=items`,
      });
      const items = is2xx(read)
        ? (parsed(read.body) as { items?: unknown } | undefined)?.items
        : undefined;
      if (!Array.isArray(items)) return req;
      const kept = items
        .filter(isObject)
        .map((i) => ({ product: i.product, quantity: i.quantity }));
      return { ...req, body: JSON.stringify({ ...body, items: kept }) };
    },
  }),
};

export const orderUnderOtherUser: Fault = {
  name: 'order-under-other-user',
  description:
    'An order is found (read, replaced, changed, deleted) under any user in the path, looked up by its own id only, not 404',
  expectedCheck: 'scoped_lookup',
  include: ['createUserOrder', 'createUser', 'getUserOrder'],
  create: () => ({
    response: async (res, req, ctx) => {
      const match = USER_ORDER.exec(pathOf(req));
      if (!match || res.status !== 404) return res;
      const authorization = await ctx.adminAuthorization();
      const order = await ctx.forward({
        ...readBack(req),
        path: `${API}/orders/${match[2]}`,
        headers: { ...omit(readBack(req).headers, 'authorization'), authorization },
      });
      const owner = is2xx(order) ? (parsed(order.body) as { userId?: unknown }).userId : undefined;
      if (owner === undefined || String(owner) === match[1]) return res;
      const path = req.path.replace(`/users/${match[1]}/`, `/users/${String(owner)}/`);
      return again(ctx, req, { path });
    },
  }),
};

export const itemsNameAnotherOrder: Fault = {
  name: 'items-name-another-order',
  description: "GET /orders/{id}?expand=items embeds items whose orderId is not the order's id",
  expectedCheck: 'embedded_items',
  include: ['createUserOrder', 'createUser', 'getOrder'],
  create: () => ({
    response: (res, req) =>
      req.method === 'GET' && ORDER.test(pathOf(req)) && res.status === 200
        ? editJson(res, (body) => {
            if (!isObject(body) || !Array.isArray(body.items)) return body;
            const items = body.items.map((i: unknown) =>
              isObject(i) ? { ...i, orderId: Number(body.id) + 1_000_000 } : i,
            );
            return { ...body, items };
          })
        : res,
  }),
};

export const sortDescIgnored: Fault = {
  name: 'sort-desc-ignored',
  description:
    'GET /users?sort=field,desc sorts ascending (the direction is validated, then dropped)',
  expectedCheck: 'sort_honoured',
  include: ['listUsers'],
  create: () => ({
    request: (req) => {
      if (req.method !== 'GET' || pathOf(req) !== `${API}/users`) return req;
      const query = queryOf(req);
      const sorts = query.getAll('sort');
      if (!sorts.some((s) => s.endsWith(',desc'))) return req;
      query.delete('sort');
      for (const s of sorts) query.append('sort', s.replace(/,desc$/, ',asc'));
      return { ...req, path: `${pathOf(req)}?${query.toString()}` };
    },
  }),
};

export const rolesListedNewestFirst: Fault = {
  name: 'roles-listed-newest-first',
  description: 'GET /roles lists the roles by id descending, not ascending',
  expectedCheck: 'sort_honoured',
  include: ['listRoles'],
  create: () => ({
    response: (res, req) =>
      req.method === 'GET' && pathOf(req) === `${API}/roles` && res.status === 200
        ? editJson(res, (body) => (Array.isArray(body) ? [...body].reverse() : body))
        : res,
  }),
};

export const categoryRenamed: Fault = {
  name: 'category-renamed',
  description:
    'GET /categories/3 answers a renamed entry (Apparel) that the catalog lists as Clothing',
  expectedCheck: 'fixed_catalog',
  include: ['listCategories', 'getCategory'],
  create: () => ({
    response: (res, req) =>
      req.method === 'GET' && pathOf(req) === `${API}/categories/3` && res.status === 200
        ? editJson(res, (body) => (isObject(body) ? { ...body, name: 'Apparel' } : body))
        : res,
  }),
};
