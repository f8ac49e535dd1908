/**
 * Faults that each break one clause of a user rule: one check of a create's body accepted when
 * it should be 400, one field of UserDto rendered wrong, a read-only status written by a PUT,
 * a PUT-create's Location left out.
 */
import { omit, type FaultHooks, type ProxyRequest, type ProxyResponse } from './fault-proxy.js';
import {
  API,
  editJson,
  editUsers,
  isObject,
  parsed,
  pathOf,
  readBack,
  USER_PATH,
  type Json,
} from './fault-helpers.js';
import type { Fault } from './faults.js';
import { actionFault, type Action, type UserStatus } from './user-lifecycle-faults.js';
import { thenStatus } from './user-write-faults.js';

const CREATE_FIELDS = ['name', 'email', 'age'];
const codePoints = (s: unknown) => (typeof s === 'string' ? [...s].length : -1);

/**
 * POST /users where the server refused the body (400) and `breaks` says it breaks the clause:
 * the body `repair` makes is stored instead and its 201 answered, as a server that does not
 * hold that one rule would (every other violation is still refused by the server).
 */
function acceptsCreate(
  name: string,
  description: string,
  breaks: (body: Json) => boolean,
  repair: (body: Json, n: number) => Json,
): Fault {
  return {
    name,
    description,
    expectedCheck: 'negative_data_rejection',
    include: ['createUser'],
    create: () => {
      let n = 0;
      return {
        response: (res, req, ctx) => {
          const body = parsed(req.body);
          if (req.method !== 'POST' || pathOf(req) !== `${API}/users` || res.status !== 400)
            return res;
          if (!isObject(body) || !breaks(body)) return res;
          return ctx.forward({
            ...req,
            headers: {
              ...omit(req.headers, 'idempotency-key'),
              'content-type': 'application/json',
            },
            body: JSON.stringify(repair(body, ++n)),
          });
        },
      };
    },
  };
}

export const missingNameDefaulted = acceptsCreate(
  'missing-name-defaulted',
  'POST /users without a name stores the user with a default name (a column default) and answers 201',
  (body) => !('name' in body),
  (body) => ({ ...body, name: 'unnamed' }),
);

export const emptyNameAccepted = acceptsCreate(
  'empty-name-accepted',
  'POST /users with an empty name ("") is stored and answered 201 (minLength 1 not enforced)',
  (body) => body.name === '',
  (body) => ({ ...body, name: '-' }),
);

export const longNameTruncated = acceptsCreate(
  'long-name-truncated',
  'POST /users with a name over 100 code points stores it cut to 100 and answers 201 (a VARCHAR(100) in a lenient database)',
  (body) => codePoints(body.name) > 100,
  (body) => ({ ...body, name: [...(body.name as string)].slice(0, 100).join('') }),
);

export const malformedEmailAccepted = acceptsCreate(
  'malformed-email-accepted',
  'POST /users with an email without @ is stored and answered 201 (the email format not checked)',
  (body) => typeof body.email === 'string' && !body.email.includes('@'),
  (body, n) => ({ ...body, email: `${String(body.email)}-${n}-${Date.now()}@example.com` }),
);

export const underAgeAccepted = acceptsCreate(
  'under-age-accepted',
  'POST /users with an age under 18 is stored and answered 201 (the minimum not checked)',
  (body) => Number.isInteger(body.age) && (body.age as number) < 18,
  (body) => ({ ...body, age: 18 }),
);

export const fractionalAgeTruncated = acceptsCreate(
  'fractional-age-truncated',
  'POST /users with a fractional age (25.5) stores it truncated (parseInt) and answers 201',
  (body) => typeof body.age === 'number' && !Number.isInteger(body.age),
  (body) => ({ ...body, age: Math.trunc(body.age as number) }),
);

export const unknownPropertyDropped = acceptsCreate(
  'unknown-property-dropped',
  'POST /users with a property the schema does not have drops it silently and answers 201',
  (body) => Object.keys(body).some((k) => !CREATE_FIELDS.includes(k)),
  (body) => Object.fromEntries(Object.entries(body).filter(([k]) => CREATE_FIELDS.includes(k))),
);

export const nullAgeOmitted: Fault = {
  name: 'null-age-omitted',
  description: 'UserDto answers leave age out when it is null (a serializer set to skip nulls)',
  expectedCheck: 'response_schema_conformance',
  include: ['users'],
  create: () => editUsers(({ age, ...user }) => (age === null ? user : { ...user, age })),
};

export const statusLowerCased: Fault = {
  name: 'status-lower-cased',
  description: 'UserDto answers give the status in lower case (active), not one of the enum values',
  expectedCheck: 'response_schema_conformance',
  include: ['users'],
  create: () =>
    editUsers((user) => ({
      ...user,
      status: typeof user.status === 'string' ? user.status.toLowerCase() : user.status,
    })),
};

export const timestampsAsEpoch: Fault = {
  name: 'timestamps-as-epoch',
  description: 'UserDto answers give createdAt and updatedAt as epoch milliseconds, not RFC 3339',
  expectedCheck: 'response_schema_conformance',
  include: ['users'],
  create: () =>
    editUsers((user) => ({
      ...user,
      createdAt: Date.parse(String(user.createdAt)),
      updatedAt: Date.parse(String(user.updatedAt)),
    })),
};

export const putStatusWritable: Fault = {
  name: 'put-status-writable',
  description:
    'PUT /users/{id} with a status moves the user to it (status not read-only); PATCH ignores it',
  expectedCheck: 'read_only_ignored',
  include: ['createUser', 'getUser', 'replaceUser', 'updateUser', 'activateUser'],
  create: () => ({
    response: thenStatus((req) => {
      const body = parsed(req.body);
      const status = isObject(body) ? body.status : undefined;
      return req.method === 'PUT' &&
        (status === 'INACTIVE' || status === 'ACTIVE' || status === 'BLOCKED')
        ? status
        : undefined;
    }),
  }),
};

const isPutCreate = (req: ProxyRequest, res: ProxyResponse) =>
  req.method === 'PUT' && USER_PATH.test(pathOf(req)) && res.status === 201;

export const putCreateLocationDropped: Fault = {
  name: 'put-create-location-dropped',
  description: 'PUT /users/{id} that creates the user answers 201 without the Location header',
  expectedCheck: 'response_headers_conformance',
  include: ['users'],
  create: () => ({
    response: (res, req) =>
      isPutCreate(req, res) ? { ...res, headers: omit(res.headers, 'location') } : res,
  }),
};

/**
 * PUT or PATCH (`method`) of a user with an email another user holds: the server's 409 is
 * turned into the 200 a store without the unique rule for that write would give (the user as
 * read, with what was sent), so that only uniqueness on that one write is broken.
 */
function duplicateEmailAcceptedOn(method: 'PUT' | 'PATCH', name: string): Fault {
  return {
    name,
    description: `${method} /users/{id} with an email another user holds answers 200 (uniqueness checked on create only)`,
    expectedCheck: 'unique_fields',
    include: ['users'],
    create: () => ({
      response: async (res, req, ctx) => {
        if (req.method !== method || !USER_PATH.test(pathOf(req)) || res.status !== 409) return res;
        if (!/duplicate-email/.test(res.body)) return res;
        const current = await ctx.forward(readBack(req));
        const user = parsed(current.body);
        const sent = parsed(req.body);
        if (current.status !== 200 || !isObject(user) || !isObject(sent)) return res;
        const replaced = method === 'PUT' ? { age: null, ...sent } : sent;
        return {
          status: 200,
          headers: omit(current.headers, 'etag', 'last-modified'),
          body: JSON.stringify({ ...user, ...replaced, status: user.status, id: user.id }),
        };
      },
    }),
  };
}

export const duplicateEmailOnPutAccepted = duplicateEmailAcceptedOn(
  'PUT',
  'duplicate-email-on-put-accepted',
);
export const duplicateEmailOnPatchAccepted = duplicateEmailAcceptedOn(
  'PATCH',
  'duplicate-email-on-patch-accepted',
);

export const putIgnoresEmail: Fault = {
  name: 'put-ignores-email',
  description:
    'PUT /users/{id} of an existing user keeps its email (an email change needs another flow) and replaces the rest',
  expectedCheck: 'put_create_and_replace',
  include: ['users'],
  create: () => ({
    request: async (req, ctx) => {
      const sent = parsed(req.body);
      if (req.method !== 'PUT' || !USER_PATH.test(pathOf(req)) || !isObject(sent)) return req;
      const current = await ctx.forward(readBack(req));
      const user = parsed(current.body);
      if (current.status !== 200 || !isObject(user)) return req;
      return { ...req, body: JSON.stringify({ ...sent, email: user.email }) };
    },
  }),
};

export const putCreateWithoutRole: Fault = {
  name: 'put-create-without-role',
  description:
    'PUT /users/{id} that creates the user skips the USER role a POST gives (its roles read back empty)',
  expectedCheck: 'put_create_and_replace',
  include: ['users', 'listUserRoles'],
  create: () => {
    const made = new Set<string>();
    return {
      response: (res, req) => {
        const path = pathOf(req);
        if (isPutCreate(req, res)) made.add(`${path}/roles`);
        return req.method === 'GET' && made.has(path) && res.status === 200
          ? { ...res, headers: omit(res.headers, 'etag', 'last-modified'), body: '[]' }
          : res;
      },
    };
  },
};

/** The accepted transitions of the user state machine: action, from, to, and a name for both. */
const MOVES: [Action, UserStatus, UserStatus][] = [
  ['activate', 'INACTIVE', 'ACTIVE'],
  ['block', 'INACTIVE', 'BLOCKED'],
  ['block', 'ACTIVE', 'BLOCKED'],
  ['unblock', 'BLOCKED', 'INACTIVE'],
];

/** `action` from `from` carried out, but answered 204 without the user the contract gives. */
const answers204 = ([action, from]: [Action, UserStatus, UserStatus]) =>
  actionFault(
    `${action}-${from.toLowerCase()}-answers-204`,
    `POST ${action} of a ${from} user is carried out but answered 204 without a body, not 200 with the user`,
    action,
    { status: from, answered: 'accepted' },
    (res) => ({
      status: 204,
      headers: omit(res.headers, 'content-type', 'content-length', 'etag', 'last-modified'),
      body: '',
    }),
  );

/** `action` from `from` carried out, but the answer shows the user as it was before. */
const answersOldState = ([action, from]: [Action, UserStatus, UserStatus]) =>
  actionFault(
    `${action}-${from.toLowerCase()}-answers-old-state`,
    `POST ${action} of a ${from} user is carried out, but the 200 shows the user still ${from} (rendered before the change)`,
    action,
    { status: from, answered: 'accepted' },
    (res) =>
      editJson({ ...res, headers: omit(res.headers, 'etag') }, (body) => ({
        ...(body as object),
        status: from,
      })),
  );

export const activateInactiveAnswers204 = answers204(MOVES[0]!);
export const blockInactiveAnswers204 = answers204(MOVES[1]!);
export const blockActiveAnswers204 = answers204(MOVES[2]!);
export const unblockBlockedAnswers204 = answers204(MOVES[3]!);
export const activateInactiveAnswersOldState = answersOldState(MOVES[0]!);
export const blockInactiveAnswersOldState = answersOldState(MOVES[1]!);
export const blockActiveAnswersOldState = answersOldState(MOVES[2]!);
export const unblockBlockedAnswersOldState = answersOldState(MOVES[3]!);

export const userDeleteAnswers200: Fault = {
  name: 'user-delete-answers-200',
  description: 'DELETE /users/{id} deletes the user but answers 200 with the deleted user, not 204',
  expectedCheck: 'status_code_conformance',
  include: ['users'],
  create: () => ({
    request: async (req, ctx) => {
      if (req.method !== 'DELETE' || !USER_PATH.test(pathOf(req))) return req;
      const before = await ctx.forward(readBack(req));
      const res = await ctx.forward(req);
      return res.status === 204 && before.status === 200
        ? { ...before, headers: omit(before.headers, 'etag', 'last-modified') }
        : res;
    },
  }),
};

export const deleteKeepsRefreshTokens: Fault = {
  name: 'delete-keeps-refresh-tokens',
  description:
    "DELETE /users/{id} leaves the user's refresh tokens behind: a refresh still answers 200 with new tokens",
  expectedCheck: 'deleted_user_token',
  include: ['getUser', 'resetData', 'login', 'refreshToken', 'deleteUser'],
  allowDestructive: true,
  create: () => {
    // Login answers by refresh token, and the user each names (the JWT's sub).
    const logins = new Map<string, { sub: string; answer: ProxyResponse }>();
    const deleted = new Set<string>();
    return {
      response: (res, req) => {
        const path = pathOf(req);
        const body = parsed(res.body);
        if (req.method === 'POST' && path === `${API}/auth/login` && res.status === 200) {
          const token = isObject(body) ? body.refreshToken : undefined;
          const access = isObject(body) ? String(body.accessToken) : '';
          const claims = parsed(Buffer.from(access.split('.')[1] ?? '', 'base64url').toString());
          if (typeof token === 'string' && isObject(claims))
            logins.set(token, { sub: String(claims.sub), answer: res });
        }
        if (req.method === 'DELETE' && USER_PATH.test(path) && res.status === 204)
          deleted.add(path.split('/').pop()!);
        if (req.method !== 'POST' || path !== `${API}/auth/refresh` || res.status !== 401)
          return res;
        const sent = parsed(req.body);
        const login = isObject(sent) ? logins.get(String(sent.refreshToken)) : undefined;
        return login && deleted.has(login.sub) ? login.answer : res;
      },
    };
  },
};

export const deleteKeepsRoleLinks: Fault = {
  name: 'delete-keeps-role-links',
  description:
    "DELETE /users/{id} leaves the user's role links behind: a user PUT-created at that id holds the deleted user's roles",
  expectedCheck: 'put_create_and_replace',
  include: ['users', 'roles'],
  create: () => {
    const left = new Map<string, number[]>();
    const asAdmin = async (
      req: ProxyRequest,
      ctx: Parameters<NonNullable<FaultHooks['request']>>[1],
      method: string,
      path: string,
    ) =>
      ctx.forward({
        method,
        path,
        headers: {
          ...omit(readBack(req).headers, 'authorization'),
          authorization: await ctx.adminAuthorization(),
        },
        body: '',
      });
    return {
      request: async (req, ctx) => {
        const path = pathOf(req);
        if (req.method !== 'DELETE' || !USER_PATH.test(path)) return req;
        const roles = parsed((await asAdmin(req, ctx, 'GET', `${path}/roles`)).body);
        const ids = Array.isArray(roles) ? roles.filter(isObject).map((r) => Number(r.id)) : [];
        const res = await ctx.forward(req);
        if (res.status === 204) left.set(path, ids);
        return res;
      },
      response: async (res, req, ctx) => {
        const path = pathOf(req);
        const ids = left.get(path);
        if (!ids || !isPutCreate(req, res)) return res;
        left.delete(path);
        for (const id of ids) await asAdmin(req, ctx, 'PUT', `${path}/roles/${id}`);
        return res;
      },
    };
  },
};
