/** Faults in listing: filters, paging, sorting, expansion. */
import {
  API,
  pathOf,
  queryOf,
  withoutQuery,
  problemAnswer,
  editJson,
  type Json,
} from './fault-helpers.js';
import type { Fault } from './faults.js';

export const statusFilterIgnored: Fault = {
  name: 'status-filter-ignored',
  description: 'GET /users ignores the status filter and lists every user',
  expectedCheck: 'filter_honoured',
  include: ['listUsers'],
  create: () => ({
    request: (req) =>
      req.method === 'GET' && pathOf(req) === `${API}/users` ? withoutQuery(req, 'status') : req,
  }),
};

export const sizeIgnored: Fault = {
  name: 'size-ignored',
  description: 'GET /users ignores size and always answers the default page size',
  expectedCheck: 'paging_invariants',
  include: ['listUsers'],
  create: () => ({
    request: (req) =>
      req.method === 'GET' && pathOf(req) === `${API}/users` ? withoutQuery(req, 'size') : req,
  }),
};

export const expandIgnored: Fault = {
  name: 'expand-ignored',
  description: 'GET /orders/{id} ignores expand: user and items never embedded',
  expectedCheck: 'expand_honoured',
  include: ['orders', 'createUser', 'getUser'],
  create: () => ({ request: (req) => withoutQuery(req, 'expand') }),
};

export const expandOnlyCommaSeparated: Fault = {
  name: 'expand-only-comma-separated',
  description:
    'GET /orders/{id} refuses expand sent repeated (expand=user&expand=items) or naming a value twice with 400, as a literal reading of explode: false would',
  expectedCheck: 'expand_honoured',
  include: ['orders', 'createUser', 'getUser'],
  create: () => ({
    request: (req) => {
      const url = new URL(req.path, 'http://proxy');
      const values = url.searchParams.getAll('expand');
      const names = values.flatMap((v) => v.split(','));
      if (values.length < 2 && new Set(names).size === names.length) return req;
      // An unknown name: the server's own 400 under #/query/expand.
      url.searchParams.set('expand', 'given-more-than-once');
      return { ...req, path: url.pathname + url.search };
    },
  }),
};

export const sortByEmailCrashes: Fault = {
  name: 'sort-by-email-crashes',
  description: 'GET /users sorted by email fails with 500 (a collation the database lacks)',
  expectedCheck: 'not_a_server_error',
  include: ['listUsers'],
  create: () => ({
    response: (res, req) =>
      req.method === 'GET' &&
      pathOf(req) === `${API}/users` &&
      res.status === 200 &&
      queryOf(req)
        .getAll('sort')
        .some((s) => s.startsWith('email'))
        ? problemAnswer(res, req, {
            kind: 'internal-error',
            title: 'Internal server error',
            status: 500,
            detail: 'collation "und-x-icu" for encoding "UTF8" does not exist',
          })
        : res,
  }),
};

export const pagingTotalsOffByOne: Fault = {
  name: 'paging-totals-off-by-one',
  description: 'UserPage.totalElements counts one user too many',
  expectedCheck: 'paging_invariants',
  include: ['listUsers'],
  create: () => ({
    response: (res, req) =>
      req.method === 'GET' && pathOf(req) === `${API}/users` && res.status === 200
        ? editJson(res, (p) => ({
            ...(p as Json),
            totalElements: Number((p as Json).totalElements) + 1,
          }))
        : res,
  }),
};

export const linkNextMissing: Fault = {
  name: 'link-next-missing',
  description: 'the Link header of a page never has rel="next"',
  expectedCheck: 'paging_invariants',
  include: ['listUsers'],
  create: () => ({
    response: (res) =>
      res.headers.link
        ? {
            ...res,
            headers: {
              ...res.headers,
              link: res.headers.link
                .split(/,\s*(?=<)/)
                .filter((l) => !/rel="?next"?/.test(l))
                .join(', '),
            },
          }
        : res,
  }),
};
