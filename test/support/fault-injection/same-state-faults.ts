/**
 * Faults of "the same state answers the same body, everywhere in the run" (decision 0124): each
 * answers one exchange otherwise than the state the rest of the run reads, in an exchange that
 * the check which made it does not look into. The rest is faithful.
 */
import type { FaultHooks, ProxyRequest, ProxyResponse } from './fault-proxy.js';
import { API, editJson, isObject, pathOf, queryOf, USER_PATH, type Json } from './fault-helpers.js';
import type { Fault } from './faults.js';

const ORDER = /^\/api\/v1\/orders\/\d+$/;
const get200 = (res: ProxyResponse, req: ProxyRequest) =>
  req.method === 'GET' && res.status === 200;

/** Another tag than `etag`, of the same kind (weak stays weak): the answer is another one. */
const otherTag = (etag: string | undefined) =>
  etag ? etag.replace(/"$/, '-changed"') : 'W/"changed"';

/**
 * Every second 200 to the same GET of a user (same URL, credential and Accept) answers another
 * name under the ETag of the first: a cache keyed too loosely, or a representation built after
 * its tag was taken.
 */
export const sameEtagOtherBody: Fault = {
  name: 'same-etag-other-body',
  description:
    'the second GET of a user answers another name with the same strong ETag as the first',
  expectedCheck: 'same_validator_same_body',
  include: ['getUser'],
  create(): FaultHooks {
    const reads = new Map<string, number>();
    return {
      response: (res, req) => {
        if (!get200(res, req) || !USER_PATH.test(pathOf(req))) return res;
        const key = [req.path, req.headers.authorization, req.headers.accept].join(' ');
        const count = (reads.get(key) ?? 0) + 1;
        reads.set(key, count);
        if (count % 2 === 1) return res;
        return editJson(res, (user) =>
          isObject(user) && typeof user.name === 'string'
            ? { ...user, name: `${user.name} Junior` }
            : user,
        );
      },
    };
  },
};

/**
 * GET /roles sent with the client's own X-Request-Id answers the catalog without its last role
 * (under a tag of its own): a catalog read through another code path than the plain GET.
 */
export const catalogOneRoleLess: Fault = {
  name: 'catalog-one-role-less',
  description:
    'GET /roles with an X-Request-Id of the client answers the fixed catalog without its last role',
  expectedCheck: 'fixed_catalog_answers',
  include: ['listRoles'],
  create: () => ({
    response: (res, req) => {
      if (!get200(res, req) || pathOf(req) !== `${API}/roles` || !req.headers['x-request-id'])
        return res;
      const edited = editJson(res, (roles) => (Array.isArray(roles) ? roles.slice(0, -1) : roles));
      return { ...edited, headers: { ...edited.headers, etag: otherTag(res.headers.etag) } };
    },
  }),
};

/** A sorted page of GET /users has no rel="last" (unsorted pages keep it). */
export const linkLastMissingWhenSorted: Fault = {
  name: 'link-last-missing-when-sorted',
  description: 'the Link header of a sorted page of GET /users has no rel="last"',
  expectedCheck: 'page_links',
  include: ['listUsers'],
  create: () => ({
    response: (res, req) => {
      const link = res.headers.link;
      if (!get200(res, req) || pathOf(req) !== `${API}/users` || !link) return res;
      if (!queryOf(req).has('sort')) return res;
      const kept = link.split(/,\s*(?=<)/).filter((l) => !/rel="?last"?/.test(l));
      return { ...res, headers: { ...res.headers, link: kept.join(', ') } };
    },
  }),
};

/**
 * GET /orders/{id} expanding the user and the items at once embeds the items without the last
 * one (under a tag of its own); `expand=items` alone embeds them all.
 */
export const expandWithUserDropsAnItem: Fault = {
  name: 'expand-with-user-drops-an-item',
  description:
    'GET /orders/{id} with expand naming both user and items embeds the items less the last one',
  expectedCheck: 'expand_honoured',
  include: ['orders', 'createUser', 'getUser'],
  create: () => ({
    response: (res, req) => {
      if (!get200(res, req) || !ORDER.test(pathOf(req))) return res;
      const names = queryOf(req)
        .getAll('expand')
        .flatMap((v) => v.split(','));
      if (!names.includes('user') || !names.includes('items')) return res;
      const edited = editJson(res, (order) =>
        isObject(order) && Array.isArray(order.items)
          ? ({ ...order, items: order.items.slice(0, -1) } as Json)
          : order,
      );
      return { ...edited, headers: { ...edited.headers, etag: otherTag(res.headers.etag) } };
    },
  }),
};
