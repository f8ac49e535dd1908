/**
 * Faults confined to answers no check of their own judges (decision 0129): a probe's, or a 429
 * the runner waits out and retries. Only the response checks, which now see every answer the
 * target gives the run, can catch them.
 */
import { API, pathOf } from './fault-helpers.js';
import type { Fault } from './faults.js';

export const preflightWithoutAllow: Fault = {
  name: 'preflight-without-allow',
  description:
    'A CORS preflight (OPTIONS with Access-Control-Request-Method) is answered 204 without Allow; a plain OPTIONS still lists the methods',
  expectedCheck: 'response_headers_conformance',
  include: ['optionsUsers', 'listUsers'],
  create: () => ({
    response: (res, req) => {
      if (req.method !== 'OPTIONS' || req.headers['access-control-request-method'] === undefined)
        return res;
      const { allow: _dropped, ...headers } = res.headers;
      return { ...res, headers };
    },
  }),
};

export const preflightAllowsOtherOrigin: Fault = {
  name: 'preflight-allows-other-origin',
  description:
    'A CORS preflight is answered with Access-Control-Allow-Origin: https://elsewhere.example, neither * nor the origin asking',
  expectedCheck: 'cors_allow_origin',
  include: ['optionsUsers', 'listUsers'],
  create: () => ({
    response: (res, req) =>
      req.method === 'OPTIONS' && req.headers['access-control-request-method'] !== undefined
        ? {
            ...res,
            headers: { ...res.headers, 'access-control-allow-origin': 'https://elsewhere.example' },
          }
        : res,
  }),
};

export const retried429PlainText: Fault = {
  name: 'retried-429-plain-text',
  description:
    'The first two reads of the user list are refused 429 with Retry-After: 0 in text/plain and without RateLimit headers; a client that waits and retries then gets the list',
  expectedCheck: 'content_type_conformance',
  include: ['listUsers'],
  create: () => {
    let refused = 0;
    return {
      request: (req) =>
        req.method === 'GET' && pathOf(req) === `${API}/users` && refused++ < 2
          ? {
              status: 429,
              headers: { 'content-type': 'text/plain', 'retry-after': '0' },
              body: 'slow down',
            }
          : req,
    };
  },
};
