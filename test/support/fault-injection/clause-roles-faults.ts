/**
 * Faults that each break one clause of a role or id rule: who may remove a role link or change
 * the admin account, an unknown user in a role link, a PUT-create at a deleted id.
 */
import { omit, type ProxyRequest } from './fault-proxy.js';
import {
  API,
  forbiddenServedAsAdmin,
  isObject,
  parsed,
  pathOf,
  problemAnswer,
  USER_PATH,
} from './fault-helpers.js';
import type { Fault } from './faults.js';
import { ROLE_LINK, unknownInRoleLink400 } from './role-faults.js';

export const roleRemovalNeedsNoAdmin: Fault = {
  name: 'role-removal-needs-no-admin',
  description:
    'DELETE /users/{id}/roles/{roleId} serves a USER token as if it held ADMIN (PUT still needs ADMIN)',
  expectedCheck: 'admin_role_required',
  include: ['assignUserRole', 'removeUserRole', 'createUser'],
  create: () =>
    forbiddenServedAsAdmin((req) => req.method === 'DELETE' && ROLE_LINK.test(pathOf(req))),
};

export const unknownUserRoleLink400: Fault = {
  name: 'unknown-user-role-link-400',
  description:
    'PUT of a role link for an unknown user is refused as invalid input (400), not 404 (an unknown role is still 404)',
  expectedCheck: 'absent_parent',
  include: ['assignUserRole', 'createUser'],
  create: () => unknownInRoleLink400(/"detail":"User \d+ does not exist/, 'user', '#/path/id'),
};

/** A USER's request on the admin account, refused 403, carried out as the admin instead. */
function adminChangeableBy(method: string, name: string, description: string): Fault {
  return {
    name,
    description,
    expectedCheck: 'role_invariants',
    include: ['replaceUser', 'updateUser', 'deleteUser', 'listUserRoles', 'getUser'],
    ...(method === 'DELETE' ? { allowDestructive: true as const } : {}),
    create: () =>
      forbiddenServedAsAdmin((req) => USER_PATH.test(pathOf(req)) && req.method === method),
  };
}

export const adminReplaceableByUser = adminChangeableBy(
  'PUT',
  'admin-replaceable-by-user',
  'a USER may PUT a user who holds ADMIN: the 403 is not given, the request goes on (PATCH and DELETE still need ADMIN)',
);

export const adminDeletableByUser = adminChangeableBy(
  'DELETE',
  'admin-deletable-by-user',
  'a USER may DELETE a user who holds ADMIN: the 403 is not given, the request goes on (PUT and PATCH still need ADMIN)',
);

export const putCreateDeletedIdRefused: Fault = {
  name: 'put-create-deleted-id-refused',
  description:
    'PUT /users/{id} at the id of a deleted user is refused 409 (ids of deleted users are tombstoned); other absent ids are created',
  expectedCheck: 'put_create_and_replace',
  include: ['users'],
  create: () => {
    const deleted = new Set<string>();
    return {
      request: (req) =>
        req.method === 'PUT' && deleted.has(pathOf(req))
          ? problemAnswer({ status: 409, headers: {}, body: '' }, req, {
              kind: 'conflict',
              title: 'Conflict',
              status: 409,
              detail: 'The id belonged to a deleted user.',
            })
          : req,
      response: (res, req) => {
        if (req.method === 'DELETE' && USER_PATH.test(pathOf(req)) && res.status === 204)
          deleted.add(pathOf(req));
        return res;
      },
    };
  },
};

const RESET = `${API}/admin/reset`;
const RESET_RUN = ['getUser', 'createUser', 'login', 'refreshToken', 'resetData'];

export const resetAnswers200: Fault = {
  name: 'reset-answers-200',
  description: 'POST /admin/reset resets the data but answers 200, not the documented 204',
  expectedCheck: 'status_code_conformance',
  include: RESET_RUN,
  allowDestructive: true,
  create: () => ({
    response: (res, req) =>
      req.method === 'POST' && pathOf(req) === RESET && res.status === 204
        ? { ...res, status: 200 }
        : res,
  }),
};

export const resetKeepsRefreshTokens: Fault = {
  name: 'reset-keeps-refresh-tokens',
  description:
    'POST /admin/reset restores the data but keeps the refresh tokens issued before it: they still refresh',
  expectedCheck: 'admin_reset',
  include: RESET_RUN,
  allowDestructive: true,
  create: () => {
    const logins = new Map<string, ProxyRequest>();
    const before = new Set<string>();
    return {
      response: async (res, req, ctx) => {
        const path = pathOf(req);
        const body = parsed(res.body);
        if (req.method === 'POST' && path === `${API}/auth/login` && res.status === 200) {
          const token = isObject(body) ? body.refreshToken : undefined;
          if (typeof token === 'string') logins.set(token, req);
        }
        if (req.method === 'POST' && path === RESET && res.status === 204)
          for (const token of logins.keys()) before.add(token);
        if (req.method !== 'POST' || path !== `${API}/auth/refresh` || res.status !== 401)
          return res;
        const sent = parsed(req.body);
        const token = isObject(sent) ? sent.refreshToken : undefined;
        const login =
          typeof token === 'string' && before.has(token) ? logins.get(token) : undefined;
        return login ? ctx.forward(login) : res;
      },
    };
  },
};

/**
 * After POST /admin/reset, the first user made is PUT at `offset` past the last id a POST
 * assigned before it: the counter rewound to (or forgotten past) that point.
 */
function counterRewoundBy(offset: number): Fault['create'] {
  return () => {
    let last: number | undefined;
    let rewound = false;
    return {
      request: async (req, ctx) => {
        if (
          !rewound ||
          last === undefined ||
          req.method !== 'POST' ||
          pathOf(req) !== `${API}/users`
        )
          return req;
        rewound = false;
        const made = await ctx.forward({
          ...req,
          method: 'PUT',
          path: `${API}/users/${last + offset}`,
          headers: {
            ...omit(req.headers, 'idempotency-key'),
            authorization: await ctx.adminAuthorization(),
          },
        });
        return made.status === 201 ? made : req;
      },
      response: (res, req) => {
        const body = parsed(res.body);
        if (req.method === 'POST' && pathOf(req) === `${API}/users` && res.status === 201)
          if (isObject(body) && typeof body.id === 'number') last = body.id;
        if (req.method === 'POST' && pathOf(req) === RESET && res.status === 204) rewound = true;
        return res;
      },
    };
  };
}

export const resetRewindsIds: Fault = {
  name: 'reset-rewinds-ids',
  description:
    'POST /admin/reset rewinds the id counter: the first user made after it gets the id of the last one made before',
  expectedCheck: 'admin_reset',
  include: RESET_RUN,
  allowDestructive: true,
  create: counterRewoundBy(0),
};

export const resetForgetsPutCreate: Fault = {
  name: 'reset-forgets-put-create',
  description:
    'POST /admin/reset sets the id counter back to the last id a POST assigned: a PUT-create past it, made before the reset, no longer counts',
  expectedCheck: 'admin_reset',
  include: [...RESET_RUN, 'replaceUser'],
  allowDestructive: true,
  create: counterRewoundBy(1),
};

export const resetKeepsIdempotencyKeys: Fault = {
  name: 'reset-keeps-idempotency-keys',
  description:
    'POST /admin/reset restores the data but keeps the Idempotency-Key records: a key sent before it is refused as reused (422)',
  expectedCheck: 'admin_reset',
  include: RESET_RUN,
  allowDestructive: true,
  create: () => {
    const keys = new Set<string>();
    const before = new Set<string>();
    return {
      request: (req) => {
        const key = req.headers['idempotency-key'];
        return req.method === 'POST' && pathOf(req) === `${API}/users` && key && before.has(key)
          ? problemAnswer({ status: 422, headers: {}, body: '' }, req, {
              kind: 'idempotency-key-reused',
              title: 'Idempotency key reused',
              status: 422,
              detail: 'The key was used with another request.',
            })
          : req;
      },
      response: (res, req) => {
        const key = req.headers['idempotency-key'];
        if (key) keys.add(key);
        if (req.method === 'POST' && pathOf(req) === RESET && res.status === 204)
          for (const k of keys) before.add(k);
        return res;
      },
    };
  },
};

const ROLE_RUN = ['roles', 'createUser'];

export const roleAssignAnswers200: Fault = {
  name: 'role-assign-answers-200',
  description:
    'PUT /users/{id}/roles/{roleId} assigns the role and answers 200 with the roles of the user, not 204',
  expectedCheck: 'status_code_conformance',
  include: ROLE_RUN,
  create: () => ({
    response: async (res, req, ctx) => {
      const path = pathOf(req);
      if (req.method !== 'PUT' || !ROLE_LINK.test(path) || res.status !== 204) return res;
      const roles = await ctx.forward({
        ...req,
        method: 'GET',
        path: path.replace(/\/\d+$/, ''),
        headers: omit(req.headers, 'content-type', 'if-match', 'if-none-match', 'idempotency-key'),
        body: '',
      });
      return roles.status === 200 ? { ...roles, status: 200 } : res;
    },
  }),
};

export const roleAssignNotStored: Fault = {
  name: 'role-assign-not-stored',
  description:
    'PUT /users/{id}/roles/{roleId} of a role the user does not hold answers 204 but stores nothing',
  expectedCheck: 'put_delete_cycle',
  include: ROLE_RUN,
  create: () => ({
    request: async (req, ctx) => {
      const path = pathOf(req);
      if (req.method !== 'PUT' || !ROLE_LINK.test(path)) return req;
      const roles = await ctx.forward({
        ...req,
        method: 'GET',
        path: path.replace(/\/roles\/\d+$/, '/roles'),
        headers: omit(req.headers, 'content-type', 'if-match', 'if-none-match', 'idempotency-key'),
        body: '',
      });
      const held = parsed(roles.body);
      const roleId = Number(path.split('/').pop());
      if (roles.status !== 200 || !Array.isArray(held)) return req;
      if (held.some((r) => isObject(r) && r.id === roleId)) return req;
      const res = await ctx.forward(req);
      if (res.status !== 204) return res;
      // Taken back behind the client's back: the answer said done, nothing is held.
      await ctx.forward({ ...req, method: 'DELETE', body: '' });
      return res;
    },
  }),
};
