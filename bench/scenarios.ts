/** What the bench measures: the subjects, the requests, and the pairs compared run by run. */
import type { Group } from './bench-settings.js';

/** One request against one subject. */
export interface Scenario {
  id: string;
  subject: SubjectKey;
  /** For the table. */
  request: string;
  path: string;
}

export type SubjectKey = 'node' | 'express' | 'ref' | 'mock' | 'prism' | 'js017' | 'jsbeta';

export const SCENARIOS = {
  nodeHello: { id: 'node-hello', subject: 'node', request: 'GET / (fixed JSON)', path: '/' },
  expressHello: {
    id: 'express-hello',
    subject: 'express',
    request: 'GET / (fixed JSON)',
    path: '/',
  },
  refGetUser: {
    id: 'ref-get-user',
    subject: 'ref',
    request: 'GET /users/1',
    path: '/api/v1/users/1',
  },
  refListUsers: {
    id: 'ref-list-users',
    subject: 'ref',
    request: 'GET /users?page=0&size=20',
    path: '/api/v1/users?page=0&size=20',
  },
  refOrderExpand: {
    id: 'ref-order-expand',
    subject: 'ref',
    request: 'GET /orders/1?expand=user,items',
    path: '/api/v1/orders/1?expand=user,items',
  },
  mockGetUser: {
    id: 'mock-get-user',
    subject: 'mock',
    request: 'GET /users/1',
    path: '/api/v1/users/1',
  },
  prismGetUser: {
    id: 'prism-get-user',
    subject: 'prism',
    request: 'GET /users/1',
    path: '/users/1',
  },
  js017GetUser: {
    id: 'js017-get-user',
    subject: 'js017',
    request: 'GET /users/1',
    path: '/users/1',
  },
  jsbetaGetUser: {
    id: 'jsbeta-get-user',
    subject: 'jsbeta',
    request: 'GET /users/1',
    path: '/users/1',
  },
} as const satisfies Record<string, Scenario>;

/** Two scenarios measured back to back in every run, the order alternating run by run. */
export interface Pair {
  id: string;
  group: Group;
  baseline: Scenario;
  subject: Scenario;
  peer?: boolean;
}

export const PAIRS: Pair[] = [
  { id: 'get-user', group: 'get', baseline: SCENARIOS.expressHello, subject: SCENARIOS.refGetUser },
  {
    id: 'list-users',
    group: 'get',
    baseline: SCENARIOS.expressHello,
    subject: SCENARIOS.refListUsers,
  },
  {
    id: 'order-expand',
    group: 'get',
    baseline: SCENARIOS.expressHello,
    subject: SCENARIOS.refOrderExpand,
  },
  {
    id: 'node-vs-express',
    group: 'get',
    baseline: SCENARIOS.expressHello,
    subject: SCENARIOS.nodeHello,
    peer: true,
  },
  {
    id: 'mock-vs-prism',
    group: 'mock',
    baseline: SCENARIOS.prismGetUser,
    subject: SCENARIOS.mockGetUser,
  },
  {
    id: 'js017-get',
    group: 'get',
    baseline: SCENARIOS.expressHello,
    subject: SCENARIOS.js017GetUser,
    peer: true,
  },
  {
    id: 'jsbeta-get',
    group: 'get',
    baseline: SCENARIOS.expressHello,
    subject: SCENARIOS.jsbetaGetUser,
    peer: true,
  },
];

export const SUBJECT_NAMES: Record<SubjectKey, string> = {
  node: 'node:http hello',
  express: 'Express 5 hello',
  ref: 'apikit serve',
  mock: 'apikit mock (MSW)',
  prism: 'prism mock',
  js017: 'json-server 0.17',
  jsbeta: 'json-server 1.0-beta',
};

export type WriteKey = 'ref' | 'js017' | 'jsbeta';
export const WRITE_BODY = '{"name":"Bench User","email":"bench.{{n}}@example.com","age":30}';
/** Size of the store the read subjects run on. */
export const READ_STORE_USERS = 1_000;
