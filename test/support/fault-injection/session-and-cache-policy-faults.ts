/**
 * Faults of decision 0127, each breaking one clause found by the mutation harness: a rotated
 * refresh token that the next refresh refuses, a write's answer with a cacheable policy, a HEAD
 * without a header its GET declares as required.
 */
import { omit } from './fault-proxy.js';
import { API, USER_PATH, editHeaders, is2xx, pathOf } from './fault-helpers.js';
import type { Fault } from './faults.js';

export const refreshAppliedTwice: Fault = {
  name: 'refresh-applied-twice',
  description:
    'each refresh is carried out twice (a retry taken for a new request): the second presents a spent token, which revokes the family of the very pair the client was given',
  expectedCheck: 'refresh_rotation',
  include: ['refreshToken', 'login'],
  create: () => ({
    response: async (res, req, ctx) => {
      if (req.method === 'POST' && pathOf(req) === `${API}/auth/refresh` && is2xx(res))
        await ctx.forward(req);
      return res;
    },
  }),
};

export const writeAnswerCachePublic: Fault = {
  name: 'write-answer-cache-public',
  description:
    "a PATCH's 200 carries Cache-Control: public, max-age=60: a shared cache may keep the changed user's representation and serve it to others",
  expectedCheck: 'cache_control_policy',
  include: ['users'],
  create: () =>
    editHeaders(
      (res, req) => req.method === 'PATCH' && is2xx(res),
      (h) => ({ ...h, 'cache-control': 'public, max-age=60' }),
    ),
};

export const headWithoutVary: Fault = {
  name: 'head-without-vary',
  description:
    'a HEAD of a user answers without Vary (its GET carries it): a cache may reuse the headers made for another token',
  expectedCheck: 'head_declared_headers',
  include: ['getUser'],
  create: () =>
    editHeaders(
      (res, req) => req.method === 'HEAD' && USER_PATH.test(pathOf(req)) && is2xx(res),
      (h) => omit(h, 'vary'),
    ),
};
