/** Faults in judging input: invalid data accepted, valid data refused, crashes on valid input. */
import { API, USER_PATH, pathOf, problemAnswer, parsed, isObject } from './fault-helpers.js';
import { omit } from './fault-proxy.js';
import type { Fault } from './faults.js';

export const invalidDataAccepted: Fault = {
  name: 'invalid-data-accepted',
  description:
    'POST /users coerces a body it should refuse into something storable and answers 201',
  expectedCheck: 'negative_data_rejection',
  include: ['createUser'],
  create: () => {
    let coerced = 0;
    return {
      response: (res, req, ctx) =>
        req.method === 'POST' && pathOf(req) === `${API}/users` && res.status === 400
          ? ctx.forward({
              ...req,
              headers: {
                ...omit(req.headers, 'idempotency-key'),
                'content-type': 'application/json',
              },
              body: JSON.stringify({
                name: 'unnamed',
                email: `coerced-${++coerced}-${Date.now()}@example.com`,
              }),
            })
          : res,
    };
  },
};

export const longNamesRejected: Fault = {
  name: 'long-names-rejected',
  description:
    'names longer than 50 code points are refused with 400 (a column of 50; the contract allows 100)',
  expectedCheck: 'positive_data_acceptance',
  include: ['users'],
  create: () => ({
    request: (req) => {
      const path = pathOf(req);
      const body = parsed(req.body);
      if (
        !['POST', 'PUT', 'PATCH'].includes(req.method) ||
        !(path === `${API}/users` || USER_PATH.test(path)) ||
        !isObject(body) ||
        typeof body.name !== 'string' ||
        [...body.name].length <= 50
      )
        return req;
      // The server's own validation answer, as if its limit were 50.
      return { ...req, body: JSON.stringify({ ...body, name: 'x'.repeat(101) }) };
    },
  }),
};

export const createWithoutAgeCrashes: Fault = {
  name: 'create-without-age-crashes',
  description: 'POST /users without the optional age fails with 500 (a null dereference)',
  expectedCheck: 'not_a_server_error',
  include: ['createUser'],
  create: () => ({
    response: (res, req) => {
      const body = parsed(req.body);
      return req.method === 'POST' &&
        pathOf(req) === `${API}/users` &&
        res.status === 201 &&
        isObject(body) &&
        body.age === undefined
        ? problemAnswer(res, req, {
            kind: 'internal-error',
            title: 'Internal server error',
            status: 500,
            detail: "Cannot read properties of undefined (reading 'valueOf')",
          })
        : res;
    },
  }),
};

export const mergePatchRefused: Fault = {
  name: 'merge-patch-refused',
  description:
    'PATCH takes application/json only: a body sent as application/merge-patch+json, a documented request media type, is answered 415',
  expectedCheck: 'documented_media_types',
  include: ['updateUser', 'createUser'],
  create: () => ({
    // The server itself refuses the body once its Content-Type is one it does not take.
    request: (req) =>
      req.method === 'PATCH' && /merge-patch/i.test(req.headers['content-type'] ?? '')
        ? { ...req, headers: { ...req.headers, 'content-type': 'text/plain' } }
        : req,
  }),
};
