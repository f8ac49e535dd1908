/** Faults in the order preconditions are judged in. */
import { USER_PATH, pathOf, preconditionFailed, readBack } from './fault-helpers.js';
import type { Fault } from './faults.js';

export const absentIfMatch412: Fault = {
  name: 'absent-if-match-412',
  description:
    'If-Match is judged before the resource is looked up: PATCH or DELETE of an absent user with an If-Match gets 412 (no current ETag matches), not 404',
  expectedCheck: 'preconditions_after_refusal',
  include: ['users'],
  create: () => ({
    request: async (req, ctx) => {
      const ifMatch = req.headers['if-match'];
      if (!ifMatch || ifMatch === '*' || !['PATCH', 'DELETE'].includes(req.method)) return req;
      if (!USER_PATH.test(pathOf(req))) return req;
      const current = await ctx.forward(readBack(req));
      if (current.status !== 404) return req;
      return preconditionFailed(
        current,
        req,
        `If-Match ${ifMatch} does not match the current ETag.`,
      );
    },
  }),
};
