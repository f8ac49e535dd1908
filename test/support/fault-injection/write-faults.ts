/** Faults in writes: deletes, PATCH and PUT, idempotency keys, reading back what was created. */
import {
  API,
  USER_PATH,
  pathOf,
  withoutHeader,
  problemAnswer,
  parsed,
  isObject,
  readBack,
  staleUserCache,
  type Json,
} from './fault-helpers.js';
import { omit } from './fault-proxy.js';
import type { Fault } from './faults.js';

export const deleteDoesNotDelete: Fault = {
  name: 'delete-does-not-delete',
  description:
    'DELETE of a user runs every check (auth, existence, If-Match) and answers 204, but removes nothing',
  expectedCheck: 'use_after_free',
  include: ['users'],
  create: () => ({
    request: async (req, ctx) => {
      if (req.method !== 'DELETE' || !USER_PATH.test(pathOf(req))) return req;
      const current = await ctx.forward(readBack(req));
      if (current.status !== 200) return current;
      const ifMatch = req.headers['if-match'];
      // A stale If-Match: the real DELETE answers 412 and deletes nothing, as it should.
      if (ifMatch && ifMatch !== '*' && !ifMatch.includes(current.headers.etag ?? '')) return req;
      return {
        status: 204,
        headers: omit(current.headers, 'content-type', 'etag', 'last-modified', 'cache-control'),
        body: '',
      };
    },
  }),
};

export const secondDelete204: Fault = {
  name: 'second-delete-204',
  description: 'DELETE of an absent resource answers 204 instead of 404',
  expectedCheck: 'delete_twice',
  include: ['users'],
  create: () => ({
    response: (res, req) =>
      req.method === 'DELETE' && res.status === 404 ? { status: 204, headers: {}, body: '' } : res,
  }),
};

export const staleReadAfterDelete: Fault = {
  name: 'stale-read-after-delete',
  description:
    'a read-through cache of users, filled by GETs, not evicted on DELETE: a deleted user that was read before is still served',
  expectedCheck: 'use_after_free',
  include: ['users'],
  create: () => staleUserCache({ fillOnCreate: false }),
};

export const staleCacheAfterDelete: Fault = {
  name: 'stale-cache-after-delete',
  description:
    'a write-through cache of users, filled on create and on GET, not evicted on DELETE: GET of a deleted user answers 200',
  expectedCheck: 'use_after_free',
  include: ['users'],
  create: () => staleUserCache({ fillOnCreate: true }),
};

export const patchResetsUnsent: Fault = {
  name: 'patch-resets-unsent',
  description:
    'PATCH of a user builds a fresh entity from the DTO: unsent age becomes null, unsent name a default',
  expectedCheck: 'patch_keeps_fields',
  include: ['users'],
  create: () => ({
    request: async (req, ctx) => {
      const sent = parsed(req.body);
      if (req.method !== 'PATCH' || !USER_PATH.test(pathOf(req)) || !isObject(sent)) return req;
      const current = await ctx.forward(readBack(req));
      const user = parsed(current.body);
      if (current.status !== 200 || !isObject(user)) return req;
      const defaults: Json = { age: null, name: String(user.email).split('@')[0] };
      return { ...req, body: JSON.stringify({ ...defaults, ...sent }) };
    },
  }),
};

export const putKeepsUnsent: Fault = {
  name: 'put-keeps-unsent',
  description: 'PUT of a user merges like PATCH: an age it was not sent is kept',
  expectedCheck: 'put_idempotent',
  include: ['users'],
  create: () => ({
    request: async (req, ctx) => {
      const sent = parsed(req.body);
      if (req.method !== 'PUT' || !USER_PATH.test(pathOf(req)) || !isObject(sent) || 'age' in sent)
        return req;
      const current = await ctx.forward(readBack(req));
      const user = parsed(current.body);
      if (current.status !== 200 || !isObject(user)) return req;
      return { ...req, body: JSON.stringify({ ...sent, age: user.age }) };
    },
  }),
};

export const idempotencyKeyIgnored: Fault = {
  name: 'idempotency-key-ignored',
  description: 'Idempotency-Key is ignored: a retried POST creates a second user',
  expectedCheck: 'idempotency_key_replay',
  include: ['users'],
  create: () => withoutHeader('idempotency-key'),
};

export const newUserNotReadable: Fault = {
  name: 'new-user-not-readable',
  description: 'a created user is not readable (a lagging read replica answers 404)',
  expectedCheck: 'ensure_resource_availability',
  include: ['users'],
  create: () => {
    const created = new Set<string>();
    return {
      response: (res, req) => {
        const location = res.headers.location;
        if (
          req.method === 'POST' &&
          pathOf(req) === `${API}/users` &&
          res.status === 201 &&
          location
        )
          created.add(location);
        return req.method === 'GET' && res.status === 200 && created.has(pathOf(req))
          ? problemAnswer(res, req, {
              kind: 'not-found',
              title: 'Resource not found',
              status: 404,
              detail: `User ${pathOf(req).split('/').pop()} does not exist.`,
            })
          : res;
      },
    };
  },
};

export const putCreateAnswers200: Fault = {
  name: 'put-create-answers-200',
  description:
    'PUT /users/{id} answers 200 whether it replaced or created: a user created at an absent id (a deleted one) gets 200 without Location instead of 201',
  expectedCheck: 'put_create_and_replace',
  include: ['users'],
  create: () => ({
    response: (res, req) =>
      req.method === 'PUT' && USER_PATH.test(pathOf(req)) && res.status === 201
        ? { ...res, status: 200, headers: omit(res.headers, 'location') }
        : res,
  }),
};

const ROLE_PATH = /^\/api\/v1\/users\/\d+\/roles\/\d+$/;

export const roleRemovalNotFound: Fault = {
  name: 'role-removal-not-found',
  description:
    'DELETE /users/{id}/roles/{roleId} looks the role up by name, not by id, so it never finds a role the user holds: 404',
  expectedCheck: 'put_delete_cycle',
  include: ['roles', 'createUser'],
  create: () => ({
    request: async (req, ctx) => {
      const path = pathOf(req);
      // Only the catalog's roles (1 USER, 2 ADMIN): malformed or unknown ids fail as before.
      if (req.method !== 'DELETE' || !ROLE_PATH.test(path) || !/\/roles\/[12]$/.test(path))
        return req;
      // The server's verdict on a role nobody holds: every earlier answer (401, 403, 406, 400)
      // stays the server's own; where it would look the role up, the role is not found.
      const unknown = await ctx.forward({
        ...req,
        path: path.replace(/\/roles\/[12]$/, '/roles/9007199254740991'),
      });
      if (unknown.status !== 404) return req;
      const [, user, role] = /users\/(\d+)\/roles\/(\d+)$/.exec(path)!;
      return problemAnswer(unknown, req, {
        kind: 'not-found',
        title: 'Resource not found',
        status: 404,
        detail: `User ${user} does not hold role ${role}.`,
      });
    },
  }),
};

export const roleAssignTwice409: Fault = {
  name: 'role-assign-twice-409',
  description:
    'PUT /users/{id}/roles/{roleId} of a role the user already holds answers 409 instead of 204 (not idempotent)',
  expectedCheck: 'put_delete_cycle',
  include: ['roles', 'createUser'],
  create: () => {
    const held = new Set<string>();
    return {
      response: (res, req) => {
        const path = pathOf(req);
        if (!ROLE_PATH.test(path) || res.status !== 204) return res;
        if (req.method === 'DELETE') held.delete(path);
        if (req.method !== 'PUT') return res;
        if (!held.has(path)) {
          held.add(path);
          return res;
        }
        return problemAnswer(res, req, {
          kind: 'conflict',
          title: 'Conflict',
          status: 409,
          detail: 'The user already holds this role.',
        });
      },
    };
  },
};
