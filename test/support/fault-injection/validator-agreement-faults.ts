/**
 * Faults where a validator disagrees with what it validates (decision 0123): a Last-Modified
 * off the body's updatedAt or off the data set's date, and 304s whose ETag or whose very
 * existence the request's validators do not bear out.
 */
import { omit, type FaultHooks, type ProxyRequest, type ProxyResponse } from './fault-proxy.js';
import { USER_PATH, pathOf } from './fault-helpers.js';
import type { Fault } from './faults.js';

const HOUR = 60 * 60 * 1000;
const CATEGORY_PATH = /^\/api\/v1\/categories\/\d+$/;
const ORDER_PATH = /^\/api\/v1\/(users\/\d+\/)?orders\/\d+$/;
const ORDER_ITEM_PATH = /^\/api\/v1\/order-items\/\d+$/;

const isRead = (req: ProxyRequest) => req.method === 'GET' || req.method === 'HEAD';
const earlier = (date: string) => new Date(Date.parse(date) - HOUR).toUTCString();
const later = (date: string) => new Date(Date.parse(date) + HOUR).toUTCString();

/**
 * Reads of `path` dated an hour early, as a server writing local time as GMT would; its
 * If-Modified-Since is compared on the same clock, so conditional reads still agree with the
 * date handed out and only the date itself is wrong.
 */
function datedAnHourEarly(path: RegExp): FaultHooks {
  const applies = (req: ProxyRequest) => isRead(req) && path.test(pathOf(req));
  return {
    request: (req) => {
      const since = req.headers['if-modified-since'];
      if (!applies(req) || since === undefined || Number.isNaN(Date.parse(since))) return req;
      return { ...req, headers: { ...req.headers, 'if-modified-since': later(since) } };
    },
    response: (res, req) => {
      const date = res.headers['last-modified'];
      if (!applies(req) || date === undefined) return res;
      return { ...res, headers: { ...res.headers, 'last-modified': earlier(date) } };
    },
  };
}

/** The 304 the server gives in place of `full`: its validator and caching headers, no body. */
function notModifiedFrom(full: ProxyResponse): ProxyResponse {
  return {
    status: 304,
    headers: omit(full.headers, 'content-type', 'content-length', 'last-modified'),
    body: '',
  };
}

export const lastModifiedHourEarly: Fault = {
  name: 'last-modified-hour-early',
  description:
    'GET and HEAD of a user are dated an hour before its updatedAt (local time written as GMT), If-Modified-Since compared on the same clock',
  expectedCheck: 'last_modified_from_body',
  include: ['getUser'],
  create: () => datedAnHourEarly(USER_PATH),
};

export const orderItemMisdated: Fault = {
  name: 'order-item-misdated',
  description:
    "GET and HEAD of an order item are dated an hour before its order's updatedAt (local time written as GMT), If-Modified-Since compared on the same clock",
  expectedCheck: 'embedded_items',
  include: ['createUser', 'getUser', 'createUserOrder', 'getUserOrder', 'getOrder', 'getOrderItem'],
  create: () => datedAnHourEarly(ORDER_ITEM_PATH),
};

export const categoryEntryMisdated: Fault = {
  name: 'category-entry-misdated',
  description:
    'GET of one category is dated an hour off the data set (local time written as GMT), while the catalog lists carry the right date',
  expectedCheck: 'data_set_date_kept',
  include: ['listCategories', 'getCategory', 'listRoles'],
  create: () => datedAnHourEarly(CATEGORY_PATH),
};

export const notModifiedOtherEtag: Fault = {
  name: 'not-modified-other-etag',
  description:
    'a 304 of a user carries another strong ETag than the one that matched (its tag is made apart from the 200s)',
  expectedCheck: 'not_modified_etag',
  include: ['getUser'],
  create: () => ({
    response: (res) =>
      res.status === 304 && res.headers.etag
        ? { ...res, headers: { ...res.headers, etag: res.headers.etag.replace(/"$/, '-304"') } }
        : res,
  }),
};

export const unmatchedIfNoneMatch304: Fault = {
  name: 'unmatched-if-none-match-304',
  description:
    'a GET or HEAD of an order with any If-None-Match answers 304 with the current ETag, a tag that does not match too',
  expectedCheck: 'not_modified_etag',
  include: ['orders', 'createUser'],
  create: () => ({
    request: async (req, ctx) => {
      if (!isRead(req) || !ORDER_PATH.test(pathOf(req)) || !req.headers['if-none-match'])
        return req;
      const full = await ctx.forward({ ...req, headers: omit(req.headers, 'if-none-match') });
      return full.status === 200 ? notModifiedFrom(full) : full;
    },
  }),
};

export const unconditional304: Fault = {
  name: 'unconditional-304',
  description:
    'a HEAD of a user without If-None-Match or If-Modified-Since answers 304 (with no body either way, the server takes it for a revalidation)',
  expectedCheck: 'not_modified_when_matched',
  include: ['getUser'],
  create: () => ({
    response: (res, req) =>
      req.method === 'HEAD' &&
      USER_PATH.test(pathOf(req)) &&
      res.status === 200 &&
      !req.headers['if-none-match'] &&
      !req.headers['if-modified-since']
        ? notModifiedFrom(res)
        : res,
  }),
};
