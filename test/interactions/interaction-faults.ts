// Broken targets for the replay of recorded interactions (decision 0113): each changes
// something the frontend scenario (frontend-scenario.ts) relies on, or, the last, something
// it never calls. `caught` names the interaction and the test the failure must name.
import type {
  FaultHooks,
  ProxyRequest,
  ProxyResponse,
} from '../support/fault-injection/fault-proxy.js';
import { omit } from '../support/fault-injection/fault-proxy.js';
import { isJson, pathOf, USER_PATH } from '../support/fault-injection/fault-helpers.js';
import { ORDER_TEST, PROFILE_TEST, USERS_TEST } from './frontend-scenario.js';

export interface InteractionFault {
  name: string;
  hooks: FaultHooks;
  /** The operationId and status of the interaction that must fail, and a test it names; none: the run passes. */
  caught?: { key: RegExp; test: string; says: RegExp };
}

const editBody = (
  res: ProxyResponse,
  edit: (body: Record<string, unknown>) => void,
): ProxyResponse => {
  if (!isJson(res) || !res.body) return res;
  const body = JSON.parse(res.body) as Record<string, unknown>;
  edit(body);
  return { ...res, body: JSON.stringify(body) };
};

const isGetUser = (req: ProxyRequest, res: ProxyResponse) =>
  req.method === 'GET' && USER_PATH.test(pathOf(req)) && res.status === 200;

export const interactionFaults: InteractionFault[] = [
  {
    name: 'a field the app reads removed (email of GET /users/{id})',
    hooks: {
      response: (res, req) => (isGetUser(req, res) ? editBody(res, (b) => delete b['email']) : res),
    },
    caught: { key: /^getUser 200 /, test: USERS_TEST.file, says: /body email: missing/ },
  },
  {
    name: 'a field retyped (an order id as a string)',
    hooks: {
      response: (res, req) =>
        req.method === 'GET' && /^\/api\/v1\/orders\/\d+$/.test(pathOf(req)) && res.status === 200
          ? editBody(res, (b) => (b['id'] = String(b['id'])))
          : res,
    },
    caught: {
      key: /^getOrder 200 /,
      test: ORDER_TEST.file,
      says: /body id: number expected, string came back/,
    },
  },
  {
    name: 'a status changed (201 of POST /users as 200)',
    hooks: {
      response: (res, req) =>
        req.method === 'POST' && pathOf(req) === '/api/v1/users' && res.status === 201
          ? { ...res, status: 200 }
          : res,
    },
    caught: {
      key: /^createUser 201 /,
      test: PROFILE_TEST.file,
      says: /status: 201 expected, 200 came back/,
    },
  },
  {
    name: 'a header the app reads dropped (ETag of GET /users/{id})',
    hooks: {
      response: (res, req) =>
        isGetUser(req, res) ? { ...res, headers: omit(res.headers, 'etag') } : res,
    },
    caught: { key: /^getUser 200 /, test: USERS_TEST.file, says: /header etag: missing/ },
  },
  {
    name: 'broken where the app never calls (the roles catalog answers 500)',
    hooks: {
      response: (res, req) =>
        pathOf(req) === '/api/v1/roles'
          ? { status: 500, headers: { 'content-type': 'text/plain' }, body: 'broken' }
          : res,
    },
  },
];
