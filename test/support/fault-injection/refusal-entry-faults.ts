/**
 * Faults in refusing negative requests with all their entries (decision 0126): a request
 * breaking several constraints, or more than `errors` can list, accepted; and 400s whose
 * `errors` drop an entry, point at a parent, or name a place the request did not break.
 */
import { API, editJson, isObject, isProblem, parsed, pathOf, type Json } from './fault-helpers.js';
import { omit, type FaultContext, type FaultHooks, type ProxyRequest } from './fault-proxy.js';
import type { Fault } from './faults.js';

const bodyPointer = (p: unknown): p is string =>
  typeof p === 'string' && p.startsWith('#') && !/^#\/(query|path|header)\//.test(p);

const pointersOf = (problem: Json): unknown[] =>
  Array.isArray(problem.errors) ? problem.errors.map((e) => (isObject(e) ? e.pointer : e)) : [];

/** Edits the problem body of every 400 that lists `errors`. */
function edit400(edit: (problem: Json, req: ProxyRequest) => Json): FaultHooks {
  return {
    response: (res, req) =>
      res.status === 400 && isProblem(res)
        ? editJson(res, (body) =>
            isObject(body) && Array.isArray(body.errors) ? edit(body, req) : body,
          )
        : res,
  };
}

/** A creation of a user the server makes up instead of refusing what it was sent. */
function createInstead(req: ProxyRequest, ctx: FaultContext, body: Json) {
  return ctx.forward({
    ...req,
    headers: { ...omit(req.headers, 'idempotency-key'), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

const isUserCreation = (req: ProxyRequest) =>
  req.method === 'POST' && pathOf(req) === `${API}/users`;

export const severalViolationsAccepted: Fault = {
  name: 'several-violations-accepted',
  description:
    'POST /users gives up on a body with two or more broken properties and stores defaults instead (201)',
  expectedCheck: 'validation_errors',
  include: ['createUser'],
  create: () => {
    let made = 0;
    return {
      response: async (res, req, ctx) => {
        if (!isUserCreation(req) || res.status !== 400 || !isProblem(res)) return res;
        const problem = parsed(res.body);
        const places = new Set(isObject(problem) ? pointersOf(problem).filter(bodyPointer) : []);
        if (places.size < 2) return res;
        const email = `several-${++made}-${Date.now()}@example.com`;
        return createInstead(req, ctx, { name: 'unnamed', email });
      },
    };
  },
};

export const overBoundAccepted: Fault = {
  name: 'over-bound-accepted',
  description:
    'a body with more violations than a 400 can list is accepted: the unknown properties are dropped and the rest stored (201)',
  expectedCheck: 'bounded_errors',
  include: ['users'],
  create: () => ({
    response: async (res, req, ctx) => {
      if (!isUserCreation(req) || res.status !== 400 || !isProblem(res)) return res;
      const problem = parsed(res.body);
      const body = parsed(req.body);
      if (!isObject(problem) || !(Number(problem.errorsOmitted) > 0) || !isObject(body)) return res;
      const named = new Set(pointersOf(problem));
      const known = Object.fromEntries(
        Object.entries(body).filter(([k]) => !named.has(`#/${k}`) && !k.startsWith('apikit-')),
      );
      return createInstead(req, ctx, known);
    },
  }),
};

export const errorsOffByOne: Fault = {
  name: 'errors-off-by-one',
  description:
    "a 400's errors leave out the last violation found (a loop one short): a lone one too",
  expectedCheck: 'negative_data_rejection',
  include: ['createUser'],
  create: () =>
    edit400((problem) => ({ ...problem, errors: (problem.errors as unknown[]).slice(0, -1) })),
};

export const pointerAtParent: Fault = {
  name: 'pointer-at-parent',
  description:
    'an entry of errors points at the object holding the broken member (#/items/0, # for #/name)',
  expectedCheck: 'negative_data_rejection',
  include: ['createUser'],
  create: () =>
    edit400((problem) => ({
      ...problem,
      errors: (problem.errors as unknown[]).map((e) =>
        isObject(e) && bodyPointer(e.pointer) && e.pointer !== '#'
          ? { ...e, pointer: e.pointer.replace(/\/[^/]*$/, '') }
          : e,
      ),
    })),
};

export const strayErrorEntry: Fault = {
  name: 'stray-error-entry',
  description:
    'a 400 to a body also lists a member that was valid (the first member of the body it does not name yet)',
  expectedCheck: 'negative_data_rejection',
  include: ['createUser'],
  create: () =>
    edit400((problem, req) => {
      const body = parsed(req.body);
      if (!isObject(body)) return problem;
      const named = new Set(pointersOf(problem));
      const valid = Object.keys(body).find((k) => !named.has(`#/${k}`));
      if (valid === undefined) return problem;
      const entry = { pointer: `#/${valid}`, detail: 'is invalid' };
      return { ...problem, errors: [...(problem.errors as unknown[]), entry] };
    }),
};
