/** Faults in a uniqueness rule: emails of users, unique and compared case-insensitively. */
import { randomUUID } from 'node:crypto';
import { API, editJson, isObject, parsed, pathOf, problemAnswer } from './fault-helpers.js';
import type { ProxyRequest } from './fault-proxy.js';
import type { Fault } from './faults.js';

const isCreateUser = (req: ProxyRequest) => req.method === 'POST' && pathOf(req) === `${API}/users`;

function emailOf(body: string): string | undefined {
  const value = parsed(body);
  return isObject(value) && typeof value.email === 'string' ? value.email : undefined;
}

export const duplicateEmailOtherCase: Fault = {
  name: 'duplicate-email-other-case',
  description:
    'emails are compared case-sensitively: a create with an email a user holds in another letter case gives 201, not 409',
  expectedCheck: 'unique_fields',
  include: ['users'],
  create: () => {
    // Emails created through the proxy, by their lower-case form. A create whose email differs
    // from one of them only in case is sent on with a fresh email and answered with its own,
    // as a store comparing emails exactly would.
    const seen = new Map<string, Set<string>>();
    const rewritten = new WeakSet<ProxyRequest>();
    return {
      request: (req) => {
        const email = isCreateUser(req) ? emailOf(req.body) : undefined;
        const same = email && seen.get(email.toLowerCase());
        if (!email || !same || same.has(email)) return req;
        rewritten.add(req);
        const body = { ...(parsed(req.body) as object), email: `${randomUUID()}@case.example` };
        return { ...req, body: JSON.stringify(body) };
      },
      response: (res, req) => {
        const email = isCreateUser(req) ? emailOf(req.body) : undefined;
        if (!email || res.status !== 201) return res;
        if (rewritten.has(req)) return editJson(res, (body) => ({ ...(body as object), email }));
        const key = email.toLowerCase();
        seen.set(key, (seen.get(key) ?? new Set()).add(email));
        return res;
      },
    };
  },
};

export const duplicateEmail422: Fault = {
  name: 'duplicate-email-422',
  description: 'a create with an email another user holds is answered 422 instead of 409',
  expectedCheck: 'unique_fields',
  include: ['users'],
  create: () => ({
    response: (res, req) =>
      isCreateUser(req) && res.status === 409 && /duplicate-email/.test(res.body)
        ? problemAnswer(res, req, {
            kind: 'duplicate-email',
            title: 'Email already in use',
            status: 422,
            detail: 'Another user has this email.',
          })
        : res,
  }),
};
