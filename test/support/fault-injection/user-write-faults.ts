/** Faults in the writes of a user: read-only fields in PUT and PATCH bodies. */
import type { ProxyRequest, ProxyResponse } from './fault-proxy.js';
import {
  editJson,
  is2xx,
  isObject,
  parsed,
  pathOf,
  problemAnswer,
  USER_BODY_PATH,
  USER_PATH,
} from './fault-helpers.js';
import type { Fault } from './faults.js';
import { act, type Action, type UserStatus } from './user-lifecycle-faults.js';

/** The operations a judgement of user writes needs, to keep the run short. */
const USER_WRITES = ['createUser', 'getUser', 'replaceUser', 'updateUser', 'activateUser'];
const READ_ONLY = ['id', 'status', 'createdAt', 'updatedAt'];
const STATES: UserStatus[] = ['INACTIVE', 'ACTIVE', 'BLOCKED'];

/** The actions that take a user from one status to another. */
const WAY: Record<UserStatus, Record<UserStatus, Action[]>> = {
  INACTIVE: { INACTIVE: [], ACTIVE: ['activate'], BLOCKED: ['block'] },
  ACTIVE: { INACTIVE: ['block', 'unblock'], ACTIVE: [], BLOCKED: ['block'] },
  BLOCKED: { INACTIVE: ['unblock'], ACTIVE: ['unblock', 'activate'], BLOCKED: [] },
};

const isUserWrite = (req: ProxyRequest) =>
  (req.method === 'PUT' || req.method === 'PATCH') && USER_PATH.test(pathOf(req));
const idOf = (req: ProxyRequest) => pathOf(req).split('/').pop() as string;
const isStatus = (v: unknown): v is UserStatus => STATES.includes(v as UserStatus);

/**
 * A successful write of a user followed, behind the client's back, by the actions that put the
 * user in the status `to` picks; the answer shows that status.
 */
export function thenStatus(to: (req: ProxyRequest, now: UserStatus) => UserStatus | undefined) {
  return async (res: ProxyResponse, req: ProxyRequest, ctx: Parameters<typeof act>[0]) => {
    if (!isUserWrite(req) || !is2xx(res)) return res;
    const now = (parsed(res.body) as { status?: unknown } | undefined)?.status;
    const wanted = isStatus(now) ? to(req, now) : undefined;
    if (!isStatus(now) || !wanted || wanted === now) return res;
    let last = res;
    for (const action of WAY[now][wanted]) last = await act(ctx, req, action, idOf(req));
    return is2xx(last) ? editJson(res, (body) => ({ ...(body as object), status: wanted })) : res;
  };
}

export const readOnlyRefused400: Fault = {
  name: 'read-only-refused-400',
  description:
    'PUT or PATCH /users/{id} with read-only fields (id, status, createdAt, updatedAt) in the body is 400',
  expectedCheck: 'read_only_ignored',
  include: USER_WRITES,
  create: () => ({
    request: (req) => {
      const body = parsed(req.body);
      const sent = isObject(body) ? READ_ONLY.filter((k) => k in body) : [];
      if (!isUserWrite(req) || sent.length === 0) return req;
      return problemAnswer({ status: 400, headers: {}, body: '' }, req, {
        kind: 'validation-failed',
        title: 'Request validation failed',
        status: 400,
        detail: `Read-only properties may not be sent: ${sent.join(', ')}.`,
      });
    },
  }),
};

export const userStatusWritable: Fault = {
  name: 'user-status-writable',
  description:
    'PATCH /users/{id} with a status moves the user to it (status not read-only); PUT ignores it',
  expectedCheck: 'read_only_ignored',
  include: USER_WRITES,
  create: () => ({
    response: thenStatus((req) => {
      const body = parsed(req.body);
      return req.method === 'PATCH' && isObject(body) && isStatus(body.status)
        ? body.status
        : undefined;
    }),
  }),
};

export const putResetsStatus: Fault = {
  name: 'put-resets-status',
  description: 'PUT /users/{id} leaves the user INACTIVE whatever its status was',
  expectedCheck: 'read_only_ignored',
  include: USER_WRITES,
  create: () => ({
    response: thenStatus((req) => (req.method === 'PUT' ? 'INACTIVE' : undefined)),
  }),
};

export const putRenewsCreatedAt: Fault = {
  name: 'put-renews-created-at',
  description: 'PUT /users/{id} sets createdAt to the time of the PUT, as if the user were new',
  expectedCheck: 'read_only_ignored',
  include: USER_WRITES,
  create: () => {
    const renewed = new Map<string, unknown>();
    return {
      response: (res, req) => {
        if (!is2xx(res) || !USER_BODY_PATH.test(pathOf(req))) return res;
        const body = parsed(res.body);
        if (!isObject(body) || typeof body.id !== 'number') return res;
        if (req.method === 'PUT' && isUserWrite(req)) renewed.set(String(body.id), body.updatedAt);
        const createdAt = renewed.get(String(body.id));
        return createdAt === undefined ? res : editJson(res, () => ({ ...body, createdAt }));
      },
    };
  },
};

const isUserPatch = (req: ProxyRequest) => req.method === 'PATCH' && USER_PATH.test(pathOf(req));

export const patchNullAgeIgnored: Fault = {
  name: 'patch-null-age-ignored',
  description: 'PATCH /users/{id} with age: null leaves the age as it was (null read as absent)',
  expectedCheck: 'patch_semantics',
  include: USER_WRITES,
  create: () => ({
    request: (req) => {
      const body = parsed(req.body);
      if (!isUserPatch(req) || !isObject(body) || body.age !== null) return req;
      const { age: _dropped, ...rest } = body;
      return { ...req, body: JSON.stringify(rest) };
    },
  }),
};

export const emptyPatch400: Fault = {
  name: 'empty-patch-400',
  description: 'PATCH /users/{id} with {} is 400 (nothing to change) instead of a 200 no-op',
  expectedCheck: 'patch_semantics',
  include: USER_WRITES,
  create: () => ({
    request: (req) => {
      const body = parsed(req.body);
      if (!isUserPatch(req) || !isObject(body) || Object.keys(body).length > 0) return req;
      return problemAnswer({ status: 400, headers: {}, body: '' }, req, {
        kind: 'validation-failed',
        title: 'Request validation failed',
        status: 400,
        detail: 'The patch changes nothing.',
      });
    },
  }),
};

export const patchAppliesValidPart: Fault = {
  name: 'patch-applies-valid-part',
  description:
    'PATCH /users/{id} refused for one invalid field still writes the valid name it carries (not all or nothing)',
  expectedCheck: 'patch_semantics',
  include: USER_WRITES,
  create: () => ({
    response: async (res, req, ctx) => {
      const body = parsed(req.body);
      if (!isUserPatch(req) || res.status !== 400 || !isObject(body)) return res;
      if (typeof body.name !== 'string' || body.name.length === 0) return res;
      await ctx.forward({ ...req, body: JSON.stringify({ name: body.name }) });
      return res;
    },
  }),
};

export const putCreateActive: Fault = {
  name: 'put-create-active',
  description:
    'PUT /users/{id} at an absent id creates the user ACTIVE (activated right away), unlike POST',
  expectedCheck: 'put_create_and_replace',
  include: ['createUser', 'getUser', 'replaceUser', 'deleteUser'],
  create: () => ({
    response: async (res, req, ctx) => {
      if (req.method !== 'PUT' || !USER_PATH.test(pathOf(req)) || res.status !== 201) return res;
      const activated = await act(ctx, req, 'activate', idOf(req));
      return is2xx(activated)
        ? editJson(res, (body) => ({ ...(body as object), status: 'ACTIVE' }))
        : res;
    },
  }),
};
