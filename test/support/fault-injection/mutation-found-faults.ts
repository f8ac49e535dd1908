/**
 * Faults found by the mutation harness (test/mutation/, decision 0115): survivors it classed
 * as blind spots, each now a clause with its check.
 */
import { API, editJson, isObject, isProblem } from './fault-helpers.js';
import type { Fault } from './faults.js';

export const errorsEntryTwice: Fault = {
  name: 'errors-entry-twice',
  description: 'a 400 lists its first violation twice in errors',
  expectedCheck: 'distinct_errors',
  include: ['createUser'],
  create: () => ({
    response: (res) =>
      res.status === 400 && isProblem(res)
        ? editJson(res, (p) =>
            isObject(p) && Array.isArray(p.errors) && p.errors.length > 0
              ? { ...p, errors: [p.errors[0], ...p.errors] }
              : p,
          )
        : res,
  }),
};

export const problemInstanceOtherPath: Fault = {
  name: 'problem-instance-other-path',
  description:
    "a problem's instance names the collection, not the resource the request addressed (a router's mount path)",
  expectedCheck: 'problem_instance',
  include: ['getUser'],
  create: () => ({
    response: (res) =>
      isProblem(res)
        ? editJson(res, (p) =>
            isObject(p) && typeof p.instance === 'string' && /\/users\/[^/]+$/.test(p.instance)
              ? { ...p, instance: `${API}/users` }
              : p,
          )
        : res,
  }),
};
