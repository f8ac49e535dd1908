/**
 * Clause faults of lists (issue 32): each breaks one part of sorting or paging of GET /users
 * (the default order, one direction, a field without direction, the second key, the tie-break,
 * where nulls go, how strings compare, sorting before paging; the default page and size, each
 * page, the totals, the echoed page, each Link relation), the rest faithful.
 */
import type { FaultHooks, ProxyRequest, ProxyResponse } from './fault-proxy.js';
import { API, editJson, isObject, pathOf, queryOf, type Json } from './fault-helpers.js';
import type { Fault } from './faults.js';

const USERS = `${API}/users`;
const isUsers = (req: ProxyRequest) => req.method === 'GET' && pathOf(req) === USERS;

interface Key {
  field: string;
  desc: boolean;
}

/** The sort keys a request asks for (`field` or `field,asc|desc`, repeated). */
const keysOf = (req: ProxyRequest): Key[] =>
  queryOf(req)
    .getAll('sort')
    .map((s) => ({ field: s.split(',')[0]!, desc: s.endsWith(',desc') }));

/** The request with its query edited. */
function withQuery(req: ProxyRequest, edit: (query: URLSearchParams) => void): ProxyRequest {
  const query = queryOf(req);
  edit(query);
  const search = query.toString();
  return { ...req, path: search ? `${pathOf(req)}?${search}` : pathOf(req) };
}

interface Ordering {
  /** Ties broken by id descending (a plain reverse of the ascending order). */
  tiesDesc?: boolean;
  nullsFirst?: boolean;
  /** Strings by the locale's collation, not by code point. */
  locale?: boolean;
}

const byCodePoint = (x: string, y: string) => {
  const a = Array.from(x);
  const b = Array.from(y);
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const d = a[i]!.codePointAt(0)! - b[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return a.length - b.length;
};

/** The items in the order of `keys`, as the contract says except where `o` departs. */
function sorted(items: Json[], keys: Key[], o: Ordering = {}): Json[] {
  const compare = (a: Json, b: Json): number => {
    for (const { field, desc } of keys) {
      const x = a[field] ?? null;
      const y = b[field] ?? null;
      if (x === null && y === null) continue;
      if (x === null || y === null) return (x === null ? 1 : -1) * (o.nullsFirst ? -1 : 1);
      const c =
        typeof x === 'string' && typeof y === 'string'
          ? o.locale
            ? x.localeCompare(y)
            : byCodePoint(x, y)
          : Number(x) - Number(y);
      if (c !== 0) return desc ? -c : c;
    }
    return (Number(a.id) - Number(b.id)) * (o.tiesDesc ? -1 : 1);
  };
  return [...items].sort(compare);
}

/** Re-sorts the page of GET /users where `when` says, the way `o` departs from the contract. */
function resorting(when: (keys: Key[]) => boolean, o: Ordering): FaultHooks {
  return {
    response: (res, req) => {
      const keys = keysOf(req);
      if (!isUsers(req) || res.status !== 200 || keys.length === 0 || !when(keys)) return res;
      return editJson(res, (page) =>
        isObject(page) && Array.isArray(page.content)
          ? { ...page, content: sorted(page.content as Json[], keys, o) }
          : page,
      );
    },
  };
}

function listFault(
  name: string,
  description: string,
  expectedCheck: string,
  create: () => FaultHooks,
): Fault {
  return { name, description, expectedCheck, include: ['listUsers'], create };
}

const requests = (edit: (req: ProxyRequest) => ProxyRequest) => () => ({
  request: (req: ProxyRequest) => (isUsers(req) ? edit(req) : req),
});

export const sortDefaultDesc = listFault(
  'sort-default-desc',
  'GET /users without sort lists the users by id descending (newest first)',
  'sort_honoured',
  requests((req) =>
    queryOf(req).has('sort') ? req : withQuery(req, (q) => q.set('sort', 'id,desc')),
  ),
);

export const sortAscIgnored = listFault(
  'sort-asc-ignored',
  'GET /users?sort=field,asc answers the default order (only desc and a bare field are applied)',
  'sort_honoured',
  requests((req) => {
    const sorts = queryOf(req).getAll('sort');
    if (sorts.length === 0 || !sorts.every((s) => s.endsWith(',asc'))) return req;
    return withQuery(req, (q) => q.delete('sort'));
  }),
);

export const sortBareFieldDesc = listFault(
  'sort-bare-field-desc',
  'GET /users?sort=field (no direction) sorts descending',
  'sort_honoured',
  requests((req) => {
    const sorts = queryOf(req).getAll('sort');
    if (!sorts.some((s) => !s.includes(','))) return req;
    return withQuery(req, (q) => {
      q.delete('sort');
      for (const s of sorts) q.append('sort', s.includes(',') ? s : `${s},desc`);
    });
  }),
);

export const sortSecondKeyIgnored = listFault(
  'sort-second-key-ignored',
  'GET /users with sort repeated applies only the first key (ties by id, not by the second key)',
  'sort_honoured',
  requests((req) => {
    const sorts = queryOf(req).getAll('sort');
    if (sorts.length < 2) return req;
    return withQuery(req, (q) => q.set('sort', sorts[0]!));
  }),
);

export const sortDescTiesReversed = listFault(
  'sort-desc-ties-reversed',
  'GET /users?sort=field,desc breaks ties by id descending (the ascending order reversed), nulls still last',
  'sort_honoured',
  () => resorting((keys) => keys.length === 1 && keys[0]!.desc, { tiesDesc: true }),
);

export const sortDescNullsFirst = listFault(
  'sort-desc-nulls-first',
  'GET /users?sort=field,desc puts null values first (PostgreSQL DESC without NULLS LAST)',
  'sort_honoured',
  () => resorting((keys) => keys.length === 1 && keys[0]!.desc, { nullsFirst: true }),
);

export const sortStringsByLocale = listFault(
  'sort-strings-by-locale',
  'GET /users sorted by a string field compares by the locale (Ó with the Os), not by code point',
  'sort_honoured',
  () => resorting((keys) => keys.length === 1, { locale: true }),
);

export const sortAfterPaging = listFault(
  'sort-after-paging',
  'GET /users with sort and a small size takes the page in id order, then sorts only that page',
  'sort_honoured',
  () => ({
    request: async (req, ctx) => {
      const keys = keysOf(req);
      const size = Number(queryOf(req).get('size') ?? 20);
      if (!isUsers(req) || keys.length === 0 || size >= 100) return req;
      const res: ProxyResponse = await ctx.forward(withQuery(req, (q) => q.delete('sort')));
      if (res.status !== 200) return res;
      return editJson(res, (page) =>
        isObject(page) && Array.isArray(page.content)
          ? { ...page, content: sorted(page.content as Json[], keys) }
          : page,
      );
    },
  }),
);

/** Paging: what a page without page or size is, and what each page holds and says. */
export const sizeDefault10 = listFault(
  'size-default-10',
  'GET /users without size answers pages of 10, not 20',
  'paging_invariants',
  requests((req) => (queryOf(req).has('size') ? req : withQuery(req, (q) => q.set('size', '10')))),
);

export const pageDefaultSecond = listFault(
  'page-default-second',
  'GET /users without page answers the second page (page counted from 1 inside)',
  'paging_invariants',
  requests((req) => (queryOf(req).has('page') ? req : withQuery(req, (q) => q.set('page', '1')))),
);

export const pageSkipsOne = listFault(
  'page-skips-one',
  'GET /users?page=N for N >= 1 answers the page after it (an offset counted one page too far)',
  'paging_invariants',
  requests((req) => {
    const page = Number(queryOf(req).get('page') ?? 0);
    return page >= 1 ? withQuery(req, (q) => q.set('page', String(page + 1))) : req;
  }),
);

const editPage = (edit: (page: Json, req: ProxyRequest) => Json) => () => ({
  response: (res: ProxyResponse, req: ProxyRequest) =>
    isUsers(req) && res.status === 200
      ? editJson(res, (page) => (isObject(page) ? edit(page, req) : page))
      : res,
});

export const totalPagesFloor = listFault(
  'total-pages-floor',
  'UserPage.totalPages is totalElements / size rounded down (a last partial page not counted)',
  'paging_invariants',
  editPage((page) => ({
    ...page,
    totalPages: Math.floor(Number(page.totalElements) / Number(page.size)),
  })),
);

export const pageEchoZero = listFault(
  'page-echo-zero',
  'UserPage.page always says 0, whatever page was asked for (the right items still served)',
  'paging_invariants',
  editPage((page) => ({ ...page, page: 0 })),
);

/** The Link header of GET /users with the links of `rel` edited by `edit`. */
function links(edit: (parts: string[], req: ProxyRequest) => string[]): () => FaultHooks {
  return () => ({
    response: (res, req) => {
      const link = res.headers.link;
      if (!isUsers(req) || !link) return res;
      const parts = edit(link.split(/,\s*(?=<)/), req);
      return { ...res, headers: { ...res.headers, link: parts.join(', ') } };
    },
  });
}
const rel = (name: string) => new RegExp(`rel="?${name}"?`);

export const linkFirstMissing = listFault(
  'link-first-missing',
  'the Link header of a page never has rel="first"',
  'paging_invariants',
  links((parts) => parts.filter((l) => !rel('first').test(l))),
);

export const linkLastMissing = listFault(
  'link-last-missing',
  'the Link header of a page never has rel="last"',
  'paging_invariants',
  links((parts) => parts.filter((l) => !rel('last').test(l))),
);

export const linkPrevOnFirstPage = listFault(
  'link-prev-on-first-page',
  'the Link header of the first page has a rel="prev" (to the first page itself)',
  'paging_invariants',
  links((parts, req) => {
    const first = parts.find((l) => rel('first').test(l));
    const onFirst = Number(queryOf(req).get('page') ?? 0) === 0;
    return onFirst && first && !parts.some((l) => rel('prev').test(l))
      ? [...parts, first.replace(rel('first'), 'rel="prev"')]
      : parts;
  }),
);

export const linkDropsFilter = listFault(
  'link-drops-filter',
  'the Link header of GET /users drops the status filter from its links (page and size kept)',
  'paging_invariants',
  links((parts) =>
    parts.map((l) => l.replace(/([?&])status=[^&>]*&?/, '$1').replace(/[?&]>/, '>')),
  ),
);

/** Filtering: every item in the status asked for, not only items in it. */
export const statusFilterDropsBlocked = listFault(
  'status-filter-drops-blocked',
  'GET /users?status=BLOCKED answers an empty page (the value compared in the wrong case), other statuses right',
  'filter_honoured',
  editPage((page, req) =>
    queryOf(req).get('status') === 'BLOCKED'
      ? { ...page, content: [], totalElements: 0, totalPages: 0 }
      : page,
  ),
);
