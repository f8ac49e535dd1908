/** Faults of the role links of a user: who may change them, unknown roles, GET on a link. */
import { omit, type FaultHooks } from './fault-proxy.js';
import {
  editJson,
  forbiddenServedAsAdmin,
  pathOf,
  problemAnswer,
  type Json,
} from './fault-helpers.js';
import type { Fault } from './faults.js';

export const ROLE_LINK = /^\/api\/v1\/users\/\d+\/roles\/\d+$/;

/**
 * A PUT of a role link whose 404 detail matches `found` (the user or the role is unknown) is
 * refused as invalid input instead: 400 with one entry at `pointer`.
 */
export function unknownInRoleLink400(found: RegExp, what: string, pointer: string): FaultHooks {
  return {
    response: (res, req) =>
      req.method === 'PUT' &&
      ROLE_LINK.test(pathOf(req)) &&
      res.status === 404 &&
      found.test(res.body)
        ? editJson(
            problemAnswer(res, req, {
              kind: 'validation-failed',
              title: 'Request validation failed',
              status: 400,
              detail: `The path names no such ${what}.`,
            }),
            (problem) => ({
              ...(problem as Json),
              errors: [{ pointer, detail: `no such ${what}` }],
            }),
          )
        : res,
  };
}

export const roleLinkNeedsNoAdmin: Fault = {
  name: 'role-link-needs-no-admin',
  description:
    'PUT /users/{id}/roles/{roleId} serves a USER token as if it held ADMIN (DELETE still needs ADMIN)',
  expectedCheck: 'admin_role_required',
  include: ['assignUserRole', 'removeUserRole', 'createUser'],
  create: () =>
    forbiddenServedAsAdmin((req) => req.method === 'PUT' && ROLE_LINK.test(pathOf(req))),
};

export const unknownRole400: Fault = {
  name: 'unknown-role-400',
  description:
    'PUT of a role link naming an unknown role is refused as invalid input (400), not 404 (an unknown user is still 404)',
  expectedCheck: 'absent_resource',
  include: ['assignUserRole', 'createUser'],
  create: () => unknownInRoleLink400(/"detail":"Role /, 'role', '#/path/roleId'),
};

export const roleLinkAnswersGet: Fault = {
  name: 'role-link-answers-get',
  description:
    'GET /users/{id}/roles/{roleId} answers 200 with the role, where the link has no representation (405)',
  expectedCheck: 'unsupported_method',
  include: ['assignUserRole', 'removeUserRole', 'optionsUserRole', 'createUser'],
  create: () => ({
    request: async (req, ctx) => {
      if (req.method !== 'GET' || !ROLE_LINK.test(pathOf(req))) return req;
      const res = await ctx.forward({
        ...req,
        path: pathOf(req).replace(/\/roles\/\d+$/, '/roles'),
      });
      return res.status === 200 ? { ...res, body: '{}' } : res;
    },
  }),
};

export const roleRemovalNotHeld204: Fault = {
  name: 'role-removal-not-held-204',
  description: 'DELETE of a role the user does not hold answers 204 (nothing to do), not 404',
  expectedCheck: 'put_delete_cycle',
  include: ['assignUserRole', 'removeUserRole', 'createUser'],
  create: () => ({
    response: (res, req) =>
      req.method === 'DELETE' && ROLE_LINK.test(pathOf(req)) && res.status === 404
        ? { status: 204, headers: omit(res.headers, 'content-type'), body: '' }
        : res,
  }),
};
