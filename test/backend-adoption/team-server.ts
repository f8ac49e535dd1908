import { startPartialServer } from '../support/conformance/partial-server.js';
import {
  omit,
  startTamperingProxy,
  type ProxyRequest,
  type ProxyResponse,
  type Tamper,
} from '../support/conformance/stateful-test-proxy.js';

/** The operations a backend team has built in its first sprint. */
export const TEAM_OPERATIONS = [
  'login',
  'listUsers',
  'createUser',
  'getUser',
  'updateUser',
  'deleteUser',
];

const USER_PATH = /^\/api\/v1\/users\/[^/?]+(\?|$)/;

/** The team's bugs, each one a behaviour a real first implementation gets wrong. */
export const PLANTED_BUGS = {
  /** POST /users answers 201 without Location. */
  createdWithoutLocation: {
    response: (res: ProxyResponse, req: ProxyRequest) =>
      req.method === 'POST' && req.path.split('?')[0] === '/api/v1/users' && res.status === 201
        ? { ...res, headers: omit(res.headers, 'location') }
        : res,
  },
  /** PATCH /users/{id} resets `age` when the body does not send it (a DTO with defaults). */
  patchResetsUnsentAge: {
    request: (req: ProxyRequest) => {
      if (req.method !== 'PATCH' || !USER_PATH.test(req.path) || req.body === undefined) return req;
      try {
        const body = JSON.parse(req.body) as unknown;
        if (typeof body !== 'object' || body === null || Array.isArray(body) || 'age' in body)
          return req;
        return { ...req, body: JSON.stringify({ ...body, age: null }) };
      } catch {
        return req;
      }
    },
  },
  /** GET /users/{id} of an absent user: a home-made `{"error":"Not found"}` as application/json. */
  homeMade404: {
    response: (res: ProxyResponse, req: ProxyRequest) =>
      req.method === 'GET' && USER_PATH.test(req.path) && res.status === 404
        ? {
            status: 404,
            headers: { ...omit(res.headers, 'content-type'), 'content-type': 'application/json' },
            body: JSON.stringify({ error: 'Not found' }),
          }
        : res,
  },
} satisfies Record<string, Tamper>;

export type BugName = keyof typeof PLANTED_BUGS;

/** A running team server: its API base URL, the requests it got, how to stop it. */
export interface TeamServer {
  api: string;
  origin: string;
  /** `METHOD /path` of every request that reached the team's routes (below /api/v1). */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A backend team's server midway: {@link TEAM_OPERATIONS} routed (over the reference
 * implementation at `upstream`, so what is built is right but for the bugs), every other
 * operation unrouted (Express's own 404 page), and the chosen planted bugs in front.
 */
export async function startTeamServer(upstream: string, bugs: BugName[]): Promise<TeamServer> {
  const partial = await startPartialServer(upstream, TEAM_OPERATIONS);
  const tampers = bugs.map((name) => PLANTED_BUGS[name] as Tamper);
  const front = await startTamperingProxy(new URL(partial.api).origin, {
    request: (req) =>
      tampers.reduce((r, t) => (t.request ? (t.request(r) as ProxyRequest) : r), req),
    response: (res, req) =>
      tampers.reduce((r, t) => (t.response ? (t.response(r, req) as ProxyResponse) : r), res),
  });
  return {
    api: `${front.url}/api/v1`,
    origin: front.url,
    requests: partial.requests,
    close: async () => {
      await front.close();
      await partial.close();
    },
  };
}
