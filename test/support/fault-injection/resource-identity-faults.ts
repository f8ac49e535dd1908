/**
 * Faults of the identity of a resource in write answers (decision 0122): a 201's Location, a
 * create's parent, the values a write answers and the id a change answers, each wrong in the
 * answer alone (what was stored is right), each caught by `resource_identity`.
 */
import {
  API,
  editJson,
  isObject,
  parsed,
  pathOf,
  readBack,
  USER_PATH,
  type Json,
} from './fault-helpers.js';
import type { ProxyRequest, ProxyResponse } from './fault-proxy.js';
import type { Fault } from './faults.js';

const USERS = `${API}/users`;
const USER_ORDERS = /^\/api\/v1\/users\/(\d+)\/orders$/;

const isUserCreate = (req: ProxyRequest, res: ProxyResponse) =>
  req.method === 'POST' && pathOf(req) === USERS && res.status === 201;
const isOrderCreate = (req: ProxyRequest, res: ProxyResponse) =>
  req.method === 'POST' && USER_ORDERS.test(pathOf(req)) && res.status === 201;

/** The id at the end of a Location path, plus one: the next resource's path. */
function nextId(location: string): string {
  return location.replace(/(\d+)$/, (id) => String(Number(id) + 1));
}

export const createdLocationNextId: Fault = {
  name: 'created-location-next-id',
  description:
    "a create's 201 Location names the id after the new user's (the counter read after its increment)",
  expectedCheck: 'resource_identity',
  include: ['createUser', 'getUser', 'deleteUser'],
  create: () => ({
    response: (res, req) =>
      isUserCreate(req, res) && res.headers.location
        ? { ...res, headers: { ...res.headers, location: nextId(res.headers.location) } }
        : res,
  }),
};

/**
 * A serializer that keeps the last answer's buffer: each 201 shows the name of the user
 * created before it (the first one its own), while the store holds the name sent.
 */
export const createdNameOfPreviousUser: Fault = {
  name: 'created-name-of-previous-user',
  description: "a create's 201 shows the name of the user created before it (stored right)",
  expectedCheck: 'resource_identity',
  include: ['createUser', 'getUser', 'deleteUser'],
  create: () => {
    let previous: unknown;
    return {
      response: (res, req) => {
        if (!isUserCreate(req, res)) return res;
        return editJson(res, (user) => {
          if (!isObject(user)) return user;
          const shown = previous === undefined ? user : { ...user, name: previous };
          previous = user.name;
          return shown;
        });
      },
    };
  },
};

export const orderLocationOtherUser: Fault = {
  name: 'order-location-other-user',
  description:
    "an order's 201 Location names it under the next user (the parent id read off by one)",
  expectedCheck: 'resource_identity',
  include: ['createUserOrder', 'createUser', 'getUserOrder', 'deleteUserOrder', 'deleteUser'],
  create: () => ({
    response: (res, req) => {
      const location = res.headers.location;
      if (!isOrderCreate(req, res) || !location) return res;
      const moved = location.replace(
        /\/users\/(\d+)\//,
        (_m, id: string) => `/users/${Number(id) + 1}/`,
      );
      return { ...res, headers: { ...res.headers, location: moved } };
    },
  }),
};

export const orderCreatedOtherUserId: Fault = {
  name: 'order-created-other-user-id',
  description: "an order's 201 body names the next user as its userId (stored under the right one)",
  expectedCheck: 'resource_identity',
  include: ['createUserOrder', 'createUser', 'getUserOrder', 'deleteUserOrder', 'deleteUser'],
  create: () => ({
    response: (res, req) =>
      isOrderCreate(req, res)
        ? editJson(res, (order) =>
            isObject(order) && typeof order.userId === 'number'
              ? { ...order, userId: order.userId + 1 }
              : order,
          )
        : res,
  }),
};

/** The same stale buffer as for users: each order's 201 shows the product of the one before. */
export const orderCreatedProductOfPrevious: Fault = {
  name: 'order-created-product-of-previous',
  description: "an order's 201 shows the product of the order created before it (stored right)",
  expectedCheck: 'resource_identity',
  include: ['createUserOrder', 'createUser', 'getUserOrder', 'deleteUserOrder', 'deleteUser'],
  create: () => {
    let previous: unknown;
    return {
      response: (res, req) => {
        if (!isOrderCreate(req, res)) return res;
        return editJson(res, (order) => {
          if (!isObject(order)) return order;
          const shown = previous === undefined ? order : { ...order, product: previous };
          previous = order.product;
          return shown;
        });
      },
    };
  },
};

const isUserPatch200 = (req: ProxyRequest, res: ProxyResponse) =>
  req.method === 'PATCH' && USER_PATH.test(pathOf(req)) && res.status === 200;

export const patchAnswersOtherUser: Fault = {
  name: 'patch-answers-other-user',
  description: 'a PATCH of a user answers 200 with the id of the next user (the change is right)',
  expectedCheck: 'resource_identity',
  include: ['users'],
  create: () => ({
    response: (res, req) =>
      isUserPatch200(req, res)
        ? editJson(res, (user) =>
            isObject(user) && typeof user.id === 'number' ? { ...user, id: user.id + 1 } : user,
          )
        : res,
  }),
};

/**
 * A PATCH answered with the user as read before the change (the change is stored): the
 * answer holds the old values of what was sent.
 */
export const patchAnswersOldValues: Fault = {
  name: 'patch-answers-old-values',
  description: 'a PATCH of a user answers 200 with the user as it was before the change',
  expectedCheck: 'resource_identity',
  include: ['users'],
  create: () => {
    const before = new Map<string, Json>();
    return {
      request: async (req, ctx) => {
        if (req.method !== 'PATCH' || !USER_PATH.test(pathOf(req))) return req;
        const current = await ctx.forward(readBack(req));
        const user = parsed(current.body);
        if (current.status === 200 && isObject(user)) before.set(pathOf(req), user);
        return req;
      },
      response: (res, req) => {
        const old = before.get(pathOf(req));
        if (!isUserPatch200(req, res) || !old) return res;
        before.delete(pathOf(req));
        return editJson(res, (user) =>
          isObject(user) ? { ...user, ...pick(old, parsed(req.body)) } : user,
        );
      },
    };
  },
};

/** The members of `from` named by the keys of `sent` (an object), unchanged otherwise. */
function pick(from: Json, sent: unknown): Json {
  if (!isObject(sent)) return {};
  return Object.fromEntries(
    Object.keys(sent)
      .filter((k) => k in from)
      .map((k) => [k, from[k]]),
  );
}

export const putCreateLocationOtherId: Fault = {
  name: 'put-create-location-other-id',
  description: 'a PUT that creates a user answers 201 with the Location of the next id',
  expectedCheck: 'resource_identity',
  include: ['users'],
  create: () => ({
    response: (res, req) =>
      req.method === 'PUT' &&
      USER_PATH.test(pathOf(req)) &&
      res.status === 201 &&
      res.headers.location
        ? { ...res, headers: { ...res.headers, location: nextId(res.headers.location) } }
        : res,
  }),
};
