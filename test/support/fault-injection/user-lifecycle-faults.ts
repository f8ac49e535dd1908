/**
 * Faults in the user lifecycle: the user state machine (activate, block, unblock). The writes
 * of a user (read-only fields, merge patches) are in user-write-faults.ts.
 */
import { omit, type FaultContext, type ProxyRequest, type ProxyResponse } from './fault-proxy.js';
import { API, editJson, is2xx, parsed, pathOf, problemAnswer, readBack } from './fault-helpers.js';
import type { Fault } from './faults.js';

export type Action = 'activate' | 'block' | 'unblock';
export type UserStatus = 'INACTIVE' | 'ACTIVE' | 'BLOCKED';

const ACTION_PATH: Record<Action, (id: string) => string> = {
  activate: (id) => `${API}/users/${id}/activate`,
  block: (id) => `${API}/admin/users/${id}/block`,
  unblock: (id) => `${API}/admin/users/${id}/unblock`,
};
const ACTION = /^\/api\/v1\/(?:users\/(\d+)\/(activate)|admin\/users\/(\d+)\/(block|unblock))$/;
/** The operations a walk of the user state machine needs, to keep the run short. */
const USER_MACHINE = ['createUser', 'getUser', 'activateUser', 'blockUser', 'unblockUser'];

/** The user as the server holds it now, read as the admin. */
async function current(ctx: FaultContext, req: ProxyRequest, id: string): Promise<ProxyResponse> {
  const authorization = await ctx.adminAuthorization();
  const read = readBack(req);
  return ctx.forward({
    ...read,
    path: `${API}/users/${id}`,
    headers: { ...read.headers, authorization },
  });
}

/** Calls an action on the user as the admin, behind the client's back. */
export async function act(
  ctx: FaultContext,
  req: ProxyRequest,
  action: Action,
  id: string,
): Promise<ProxyResponse> {
  const authorization = await ctx.adminAuthorization();
  return ctx.forward({
    method: 'POST',
    path: ACTION_PATH[action](id),
    headers: { ...omit(req.headers, 'content-type', 'if-match'), authorization },
    body: '',
  });
}

const statusOf = (res: ProxyResponse): unknown =>
  is2xx(res) ? (parsed(res.body) as { status?: unknown } | undefined)?.status : undefined;

const refused = (like: ProxyResponse, req: ProxyRequest, detail: string): ProxyResponse =>
  problemAnswer(like, req, {
    kind: 'invalid-state-transition',
    title: 'Invalid state transition',
    status: 409,
    detail,
  });

/**
 * A fault of one action called on a user in one status, applied only where the server itself
 * judged the request (its answer `expected`: 2xx, or the refusal 409), so that probes of
 * authentication, roles and bodies still meet the server's own answers. `answer` replaces it:
 * an answer made up, or actions sent behind the client's back.
 */
export function actionFault(
  name: string,
  description: string,
  action: Action,
  when: { status: UserStatus; answered: 'accepted' | 'refused' },
  answer: (
    res: ProxyResponse,
    req: ProxyRequest,
    ctx: FaultContext,
    id: string,
  ) => Promise<ProxyResponse> | ProxyResponse,
): Fault {
  return {
    name,
    description,
    expectedCheck: 'state_transitions',
    include: USER_MACHINE,
    create: () => {
      const before = new WeakMap<ProxyRequest, unknown>();
      const target = (req: ProxyRequest) => {
        const match = ACTION.exec(pathOf(req));
        const id = match?.[1] ?? match?.[3];
        return req.method === 'POST' && (match?.[2] ?? match?.[4]) === action ? id : undefined;
      };
      return {
        request: async (req, ctx) => {
          const id = target(req);
          if (id) before.set(req, statusOf(await current(ctx, req, id)));
          return req;
        },
        response: (res, req, ctx) => {
          const id = target(req);
          const judged = when.answered === 'accepted' ? is2xx(res) : res.status === 409;
          return id && judged && before.get(req) === when.status ? answer(res, req, ctx, id) : res;
        },
      };
    },
  };
}

/** Sends actions one after the other as the admin; the answer of the last. */
async function actions(
  ctx: FaultContext,
  req: ProxyRequest,
  id: string,
  ...sequence: Action[]
): Promise<ProxyResponse> {
  let last: ProxyResponse | undefined;
  for (const a of sequence) last = await act(ctx, req, a, id);
  return last!;
}

export const newUserActive: Fault = {
  name: 'new-user-active',
  description: 'POST /users makes the new user ACTIVE (activated right away), not INACTIVE',
  expectedCheck: 'state_transitions',
  include: USER_MACHINE,
  create: () => ({
    response: async (res, req, ctx) => {
      if (req.method !== 'POST' || pathOf(req) !== `${API}/users` || res.status !== 201) return res;
      const id = (parsed(res.body) as { id?: unknown } | undefined)?.id;
      if (typeof id !== 'number') return res;
      const activated = await act(ctx, req, 'activate', String(id));
      if (!is2xx(activated)) return res;
      return editJson({ ...res, headers: omit(res.headers, 'etag', 'last-modified') }, (body) => ({
        ...(body as object),
        status: 'ACTIVE',
      }));
    },
  }),
};

export const activateIgnored = actionFault(
  'activate-ignored',
  'POST /users/{id}/activate of an INACTIVE user answers 200 but leaves the user INACTIVE',
  'activate',
  { status: 'INACTIVE', answered: 'accepted' },
  async (res, req, ctx, id) => {
    await actions(ctx, req, id, 'block', 'unblock');
    return res;
  },
);

export const activateActive409 = actionFault(
  'activate-active-409',
  'POST /users/{id}/activate of an ACTIVE user is 409 instead of a 200 no-op',
  'activate',
  { status: 'ACTIVE', answered: 'accepted' },
  (res, req) => refused(res, req, 'The user is already ACTIVE.'),
);

export const activateBlocked200 = actionFault(
  'activate-blocked-200',
  'POST /users/{id}/activate of a BLOCKED user answers 200 with the user ACTIVE instead of 409',
  'activate',
  { status: 'BLOCKED', answered: 'refused' },
  (_res, req, ctx, id) => actions(ctx, req, id, 'unblock', 'activate'),
);

export const blockInactiveIgnored = actionFault(
  'block-inactive-ignored',
  'POST /admin/users/{id}/block of an INACTIVE user answers 200 but leaves the user INACTIVE',
  'block',
  { status: 'INACTIVE', answered: 'accepted' },
  async (res, req, ctx, id) => {
    await actions(ctx, req, id, 'unblock');
    return res;
  },
);

export const blockActiveIgnored = actionFault(
  'block-active-ignored',
  'POST /admin/users/{id}/block of an ACTIVE user answers 200 but leaves the user ACTIVE',
  'block',
  { status: 'ACTIVE', answered: 'accepted' },
  async (res, req, ctx, id) => {
    await actions(ctx, req, id, 'unblock', 'activate');
    return res;
  },
);

export const blockBlocked409 = actionFault(
  'block-blocked-409',
  'POST /admin/users/{id}/block of a BLOCKED user is 409 instead of a 200 no-op',
  'block',
  { status: 'BLOCKED', answered: 'accepted' },
  (res, req) => refused(res, req, 'The user is already BLOCKED.'),
);

export const unblockToActive = actionFault(
  'unblock-to-active',
  'POST /admin/users/{id}/unblock of a BLOCKED user makes them ACTIVE, not INACTIVE',
  'unblock',
  { status: 'BLOCKED', answered: 'accepted' },
  (_res, req, ctx, id) => actions(ctx, req, id, 'activate'),
);

export const unblockInactive409 = actionFault(
  'unblock-inactive-409',
  'POST /admin/users/{id}/unblock of an INACTIVE (not blocked) user is 409 instead of a 200 no-op',
  'unblock',
  { status: 'INACTIVE', answered: 'accepted' },
  (res, req) => refused(res, req, 'The user is not BLOCKED.'),
);

export const unblockDemotesActive = actionFault(
  'unblock-demotes-active',
  'POST /admin/users/{id}/unblock of an ACTIVE user demotes them to INACTIVE',
  'unblock',
  { status: 'ACTIVE', answered: 'accepted' },
  (_res, req, ctx, id) => actions(ctx, req, id, 'block', 'unblock'),
);

const USER = /^\/api\/v1\/users\/(\d+)$/;

export const deleteKeepsOrders: Fault = {
  name: 'delete-keeps-orders',
  description:
    "DELETE /users/{id} leaves the user's orders behind: GET /orders/{id} still answers 200",
  expectedCheck: 'delete_cascade',
  include: ['createUser', 'getUser', 'deleteUser', 'createUserOrder', 'getUserOrder', 'getOrder'],
  create: () => {
    const kept = new Map<string, ProxyResponse>();
    return {
      request: async (req, ctx) => {
        const id = USER.exec(pathOf(req))?.[1];
        if (req.method !== 'DELETE' || !id) return req;
        const authorization = await ctx.adminAuthorization();
        const read = { ...readBack(req), headers: { ...readBack(req).headers, authorization } };
        const list = await ctx.forward({ ...read, path: `${API}/users/${id}/orders` });
        const orders = is2xx(list) ? parsed(list.body) : undefined;
        for (const order of Array.isArray(orders) ? (orders as { id?: unknown }[]) : []) {
          const path = `${API}/orders/${String(order.id)}`;
          const one = await ctx.forward({ ...read, path });
          if (is2xx(one)) kept.set(path, one);
        }
        return req;
      },
      response: (res, req) =>
        req.method === 'GET' && res.status === 404 ? (kept.get(pathOf(req)) ?? res) : res,
    };
  },
};

const USER_ROLES = /^\/api\/v1\/users\/(\d+)\/roles$/;

export const newUserWithoutRole: Fault = {
  name: 'new-user-without-role',
  description: 'a user made by POST /users holds no role: GET /users/{id}/roles lists none',
  expectedCheck: 'initial_items',
  include: ['createUser', 'getUser', 'listUserRoles'],
  create: () => {
    const made = new Set<string>();
    return {
      response: (res, req) => {
        if (req.method === 'POST' && pathOf(req) === `${API}/users` && res.status === 201) {
          const id = (parsed(res.body) as { id?: unknown } | undefined)?.id;
          made.add(String(id));
        }
        const id = USER_ROLES.exec(pathOf(req))?.[1];
        return req.method === 'GET' && id && made.has(id) && is2xx(res)
          ? editJson(res, () => [])
          : res;
      },
    };
  },
};
