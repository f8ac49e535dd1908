/**
 * Faults in the role invariants and id allocation (decision 0083): a removable USER role, a
 * USER changing an ADMIN, roles read from the token, a last ADMIN demoted, reused ids and a
 * counter that ignores PUT-creates. Caught by role_invariants, role_holders (with
 * --allow-destructive) and id_allocation.
 */
import { jwtClaims } from '../../../conformance/checks/support/bad-credentials.js';
import {
  API,
  editJson,
  forbiddenServedAsAdmin,
  is2xx,
  isObject,
  parsed,
  pathOf,
  problemAnswer,
  USER_PATH,
} from './fault-helpers.js';
import type { FaultContext, FaultHooks, ProxyRequest, ProxyResponse } from './fault-proxy.js';
import type { Fault } from './faults.js';

const ROLE_LINK = /^\/api\/v1\/users\/(\d+)\/roles\/(\d+)$/;
const USER_ROLE_ID = '1';

/** A genuine 204 of a role link: assigning, as the admin, a role the user already holds. */
async function assigned(
  ctx: FaultContext,
  req: ProxyRequest,
  roleId: string,
): Promise<ProxyResponse> {
  const user = ROLE_LINK.exec(pathOf(req))![1];
  return ctx.forward({
    method: 'PUT',
    path: `${API}/users/${user}/roles/${roleId}`,
    headers: { accept: 'application/json', authorization: await ctx.adminAuthorization() },
    body: '',
  });
}

export const roleCatalogRenumbered: Fault = {
  name: 'role-catalog-renumbered',
  description: 'the role catalog numbers its roles the other way round: 1 ADMIN, 2 USER',
  expectedCheck: 'role_invariants',
  include: ['listRoles'],
  create: () => ({
    response: (res, req) =>
      req.method === 'GET' && pathOf(req) === `${API}/roles` && res.status === 200
        ? editJson(res, (roles) =>
            Array.isArray(roles)
              ? roles.map((r: { id: number; name: string }) => ({
                  ...r,
                  name: r.name === 'USER' ? 'ADMIN' : r.name === 'ADMIN' ? 'USER' : r.name,
                }))
              : roles,
          )
        : res,
  }),
};

export const userRoleRemovable: Fault = {
  name: 'user-role-removable',
  description: 'removing the USER role answers 204 (though the role is kept), not 409',
  expectedCheck: 'role_invariants',
  include: ['removeUserRole', 'createUser', 'listRoles', 'listUserRoles'],
  create: () => ({
    response: async (res, req, ctx) =>
      req.method === 'DELETE' &&
      res.status === 409 &&
      ROLE_LINK.exec(pathOf(req))?.[2] === USER_ROLE_ID
        ? assigned(ctx, req, USER_ROLE_ID)
        : res,
  }),
};

export const adminChangeableByUser: Fault = {
  name: 'admin-changeable-by-user',
  description:
    'a USER may PATCH a user who holds ADMIN: the 403 is not given, the request goes on (to its 412 or 200); PUT and DELETE still need ADMIN',
  expectedCheck: 'role_invariants',
  include: ['replaceUser', 'updateUser', 'deleteUser', 'listUserRoles', 'getUser'],
  create: () =>
    forbiddenServedAsAdmin((req) => USER_PATH.test(pathOf(req)) && req.method === 'PATCH'),
};

export const roleReadFromToken: Fault = {
  name: 'role-read-from-token',
  description:
    "role links trust the token's role claim, not the user's current roles: a USER promoted after login is still refused",
  expectedCheck: 'role_holders',
  include: ['assignUserRole', 'removeUserRole', 'listRoles', 'listUserRoles'],
  allowDestructive: true,
  create: () => ({
    request: (req) => {
      const token = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      const role = jwtClaims(token)?.role;
      if (!ROLE_LINK.test(pathOf(req)) || role === undefined || role === 'ADMIN') return req;
      return problemAnswer({ status: 403, headers: {}, body: '' }, req, {
        kind: 'forbidden',
        title: 'Forbidden',
        status: 403,
        detail: 'The role ADMIN is required',
      });
    },
  }),
};

export const lastAdminDemotable: Fault = {
  name: 'last-admin-demotable',
  description: 'removing ADMIN from the last ADMIN answers 204, not 409',
  expectedCheck: 'role_holders',
  include: ['assignUserRole', 'removeUserRole', 'listRoles', 'listUserRoles', 'listUsers'],
  allowDestructive: true,
  create: () => ({
    response: async (res, req, ctx) => {
      const link = ROLE_LINK.exec(pathOf(req));
      return req.method === 'DELETE' && res.status === 409 && link && link[2] !== USER_ROLE_ID
        ? assigned(ctx, req, link[2]!)
        : res;
    },
  }),
};

/** The id of a created user in a 2xx answer, or undefined. */
const createdId = (res: ProxyResponse): number | undefined => {
  const body = is2xx(res) ? parsed(res.body) : undefined;
  return isObject(body) && typeof body.id === 'number' ? body.id : undefined;
};
const isCreate = (req: ProxyRequest) => req.method === 'POST' && pathOf(req) === `${API}/users`;

/** A create sent as a PUT-create at `id` (If-None-Match: * so that it never replaces). */
const putAt = (req: ProxyRequest, id: number): ProxyRequest => ({
  ...req,
  method: 'PUT',
  path: `${API}/users/${id}`,
  headers: { ...req.headers, 'if-none-match': '*' },
});

/**
 * The next user created is PUT-created at the id `decide` picks from an answer (it sees the
 * newest id created so far), once per pick: the shape of every counter fault below.
 */
function nextCreateAt(
  decide: (res: ProxyResponse, req: ProxyRequest, newest: number) => number | undefined,
): FaultHooks {
  let newest = 0;
  let next: number | undefined;
  return {
    request: (req) => {
      if (!isCreate(req) || next === undefined) return req;
      const id = next;
      next = undefined;
      return putAt(req, id);
    },
    response: (res, req) => {
      const id = createdId(res);
      if (id !== undefined && isCreate(req)) newest = Math.max(newest, id);
      next = decide(res, req, newest) ?? next;
      return res;
    },
  };
}

/** The id a 204 to DELETE /users/{id} freed, or undefined. */
const deletedId = (res: ProxyResponse, req: ProxyRequest): number | undefined =>
  req.method === 'DELETE' && USER_PATH.test(pathOf(req)) && res.status === 204
    ? Number(pathOf(req).split('/').pop())
    : undefined;

/** Far past the ids a run makes: the ids this variant hands out count down from here. */
const COUNTDOWN_FROM = 900_000;

export const idsCountDown: Fault = {
  name: 'ids-count-down',
  description:
    'each new user gets an id one below the previous one (900000, 899999, ...): positive, never reused, but decreasing',
  expectedCheck: 'id_allocation',
  include: ['createUser', 'deleteUser'],
  create: () => {
    let next = COUNTDOWN_FROM;
    return { request: (req) => (isCreate(req) ? putAt(req, next--) : req) };
  },
};

export const createdIdZero: Fault = {
  name: 'created-id-zero',
  description: "a created user's 201 says `id: 0` (its Location and the store keep the real id)",
  expectedCheck: 'response_schema_conformance',
  include: ['createUser', 'getUser'],
  create: () => ({
    response: (res, req) =>
      isCreate(req) && res.status === 201
        ? editJson(res, (user) => (isObject(user) ? { ...user, id: 0 } : user))
        : res,
  }),
};

export const deletedIdReused: Fault = {
  name: 'deleted-id-reused',
  description: 'the id of the newest user, once deleted, is given to the next user created',
  expectedCheck: 'id_allocation',
  include: ['createUser', 'deleteUser'],
  create: () => nextCreateAt(deletedId),
};

export const olderDeletedIdReused: Fault = {
  name: 'older-deleted-id-reused',
  description:
    'the id of a user deleted below the newest is given to the next user created (the newest, once deleted, is never reused)',
  expectedCheck: 'id_allocation',
  include: ['createUser', 'deleteUser'],
  create: () =>
    nextCreateAt((res, req, newest) => {
      const gone = deletedId(res, req);
      return gone !== undefined && gone < newest ? gone : undefined;
    }),
};

export const counterIgnoresPutCreate: Fault = {
  name: 'counter-ignores-put-create',
  description:
    'a PUT-create at an id past the newest does not move the counter: the next create gets a lower id',
  expectedCheck: 'id_allocation',
  include: ['createUser', 'deleteUser', 'replaceUser'],
  create: () =>
    nextCreateAt((res, req, newest) => {
      const id = createdId(res);
      return req.method === 'PUT' && res.status === 201 && id !== undefined && id > newest + 1
        ? newest + 1
        : undefined;
    }),
};
