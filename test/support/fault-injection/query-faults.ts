/** Faults in how list queries are read: lenient parsers that take what the contract refuses. */
import type { FaultHooks, ProxyRequest } from './fault-proxy.js';
import { API, pathOf } from './fault-helpers.js';
import type { Fault } from './faults.js';

/** Rewrites the query of GET /users before it is forwarded. */
function listQuery(edit: (query: URLSearchParams) => void): FaultHooks {
  return {
    request: (req: ProxyRequest) => {
      if (req.method !== 'GET' || pathOf(req) !== `${API}/users`) return req;
      const url = new URL(req.path, 'http://proxy');
      edit(url.searchParams);
      return { ...req, path: url.pathname + url.search };
    },
  };
}

/** Keeps only the values of `name` that `keep` accepts. */
function filterValues(query: URLSearchParams, name: string, keep: (v: string) => boolean): void {
  const values = query.getAll(name);
  query.delete(name);
  for (const v of values.filter(keep)) query.append(name, v);
}

const LIST_USERS_QUERY = new Set(['status', 'page', 'size', 'sort']);
const USER_STATUSES = new Set(['ACTIVE', 'INACTIVE', 'BLOCKED']);
const SORT_FIELDS = new Set(['id', 'name', 'email', 'age', 'createdAt']);

export const unknownQueryIgnored: Fault = {
  name: 'unknown-query-ignored',
  description: 'GET /users drops query parameters it does not know instead of answering 400',
  expectedCheck: 'negative_data_rejection',
  include: ['listUsers'],
  create: () =>
    listQuery((query) => {
      for (const name of [...query.keys()]) if (!LIST_USERS_QUERY.has(name)) query.delete(name);
    }),
};

export const unknownStatusIgnored: Fault = {
  name: 'unknown-status-ignored',
  description: 'GET /users takes an unknown status value as no filter (all users), not 400',
  expectedCheck: 'negative_data_rejection',
  include: ['listUsers'],
  create: () => listQuery((query) => filterValues(query, 'status', (v) => USER_STATUSES.has(v))),
};

export const unknownSortIgnored: Fault = {
  name: 'unknown-sort-ignored',
  description: 'GET /users skips a sort key naming an unknown field instead of answering 400',
  expectedCheck: 'negative_data_rejection',
  include: ['listUsers'],
  create: () =>
    listQuery((query) =>
      filterValues(query, 'sort', (v) => SORT_FIELDS.has(v.split(',')[0] ?? '')),
    ),
};

export const sizeOver100Clamped: Fault = {
  name: 'size-over-100-clamped',
  description: 'GET /users clamps a size over 100 to 100 instead of answering 400',
  expectedCheck: 'negative_data_rejection',
  include: ['listUsers'],
  create: () =>
    listQuery((query) => {
      const size = query.get('size');
      if (size !== null && /^\d+$/.test(size) && Number(size) > 100) query.set('size', '100');
    }),
};

export const lenientQueryIntegers: Fault = {
  name: 'lenient-query-integers',
  description: 'GET /users reads page and size with a leading zero (05, 020) as integers, not 400',
  expectedCheck: 'negative_data_rejection',
  include: ['listUsers'],
  create: () =>
    listQuery((query) => {
      for (const name of ['page', 'size']) {
        const raw = query.get(name);
        if (raw === null || raw.trim() === '') continue;
        const n = Number(raw);
        // Leading zeros only: a sign, an exponent and a fraction have faults of their own.
        if (/^0\d+$/.test(raw) && Number.isSafeInteger(n)) query.set(name, String(n));
      }
    }),
};
