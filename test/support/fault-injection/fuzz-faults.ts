/**
 * Faults only the fuzz phase meets (`apikit conform --fuzz N`): its oracles' natural prey, in
 * the same table as every other fault (conformance/fuzz/fuzz-faults.test.ts holds more).
 */
import { INJECTED_HEADER } from '../../../conformance/fuzz/fuzz-strings.js';
import { editJson, isObject, pathOf, USER_PATH } from './fault-helpers.js';
import type { Fault } from './faults.js';

const INCLUDE = ['createUser', 'getUser', 'updateUser', 'replaceUser', 'listUsers'];

const decoded = (text: string) => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

export const headerInjectionEchoed: Fault = {
  name: 'header-injection-echoed',
  description: 'request values with CR/LF are written raw into response headers (splitting)',
  expectedCheck: 'fuzz_header_injection',
  include: INCLUDE,
  fuzz: 20,
  create: () => ({
    response: (res, req) => {
      const sent = [decoded(req.path), req.body, ...Object.values(req.headers).map(decoded)];
      const split = new RegExp(`[\\r\\n]${INJECTED_HEADER}:`, 'i');
      return sent.some((text) => split.test(text))
        ? { ...res, headers: { ...res.headers, [INJECTED_HEADER]: 'injected' } }
        : res;
    },
  }),
};

export const readBackDropsAge: Fault = {
  name: 'read-back-drops-age',
  description: 'a written age is not read back: GET of a user answers age: null',
  expectedCheck: 'fuzz_read_back',
  include: INCLUDE,
  fuzz: 20,
  create: () => ({
    response: (res, req) =>
      req.method === 'GET' && res.status === 200 && USER_PATH.test(pathOf(req))
        ? editJson(res, (user) => (isObject(user) ? { ...user, age: null } : user))
        : res,
  }),
};
