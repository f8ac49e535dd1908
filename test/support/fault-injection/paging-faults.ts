/** Faults in paging: what a page past the end holds. */
import { API, isObject, parsed, pathOf, queryOf } from './fault-helpers.js';
import type { Fault } from './faults.js';

export const pastEndServesLastPage: Fault = {
  name: 'past-end-serves-last-page',
  description: 'GET /users with a page past the end clamps it and answers the last page',
  expectedCheck: 'paging_invariants',
  include: ['listUsers'],
  create: () => ({
    response: async (res, req, ctx) => {
      if (req.method !== 'GET' || pathOf(req) !== `${API}/users` || res.status !== 200) return res;
      const page = parsed(res.body);
      if (!isObject(page) || !Array.isArray(page.content) || page.content.length > 0) return res;
      const totalPages = Number(page.totalPages);
      if (!(totalPages > 0 && Number(queryOf(req).get('page') ?? 0) >= totalPages)) return res;
      const url = new URL(req.path, 'http://proxy');
      url.searchParams.set('page', String(totalPages - 1));
      return ctx.forward({ ...req, path: url.pathname + url.search });
    },
  }),
};
