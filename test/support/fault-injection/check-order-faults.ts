/**
 * Faults in the order in which a request's failures are judged (`x-apikit-http.checkOrder`):
 * middleware stacked in another order answers a request broken two ways with the later failure.
 */
import { problemAnswer } from './fault-helpers.js';
import type { FaultContext, ProxyRequest, ProxyResponse } from './fault-proxy.js';
import type { Fault } from './faults.js';

/**
 * Answers what the server answers once the first failure is repaired by `repair`, when the
 * original answer was `status` to a request `applies` picks: the second failure wins, as if its
 * check ran first.
 */
export function laterFailureWins(
  status: number,
  repair: (req: ProxyRequest, ctx: FaultContext) => ProxyRequest | Promise<ProxyRequest>,
  applies: (req: ProxyRequest) => boolean = () => true,
) {
  return () => ({
    response: async (res: ProxyResponse, req: ProxyRequest, ctx: FaultContext) => {
      if (res.status !== status || !applies(req)) return res;
      const repaired = await ctx.forward(await repair(req, ctx));
      return repaired.status >= 400 && repaired.status !== 429 ? repaired : res;
    },
  });
}

const withHeader = (req: ProxyRequest, name: string, value: string | undefined): ProxyRequest => {
  const headers = { ...req.headers };
  if (value === undefined) delete headers[name];
  else headers[name] = value;
  return { ...req, headers };
};

export const authBeforeMethod: Fault = {
  name: 'auth-before-method',
  description: 'authentication runs before routing: an unsupported method without a token is 401',
  expectedCheck: 'check_order',
  include: ['users'],
  create: () => ({
    response: (res, req) =>
      res.status === 405 && !req.headers.authorization
        ? problemAnswer(res, req, {
            kind: 'unauthenticated',
            title: 'Authentication required',
            status: 401,
            detail: 'No bearer token was sent.',
          })
        : res,
  }),
};

export const roleBeforeAuth: Fault = {
  name: 'role-before-auth',
  description: 'the ADMIN guard runs before authentication: /admin without a token is 403',
  expectedCheck: 'check_order',
  include: ['admin', 'createUser'],
  create: () => ({
    response: (res, req) =>
      res.status === 401 && req.path.startsWith('/api/v1/admin/')
        ? problemAnswer(res, req, {
            kind: 'forbidden',
            title: 'Forbidden',
            status: 403,
            detail: 'The ADMIN role is needed.',
          })
        : res,
  }),
};

export const acceptBeforeRole: Fault = {
  name: 'accept-before-role',
  description: 'content negotiation runs before the ADMIN guard: a USER asking text/html gets 406',
  expectedCheck: 'check_order',
  include: ['admin', 'createUser'],
  // Only requests asking for something other than JSON: the body checks stay in their place.
  create: laterFailureWins(
    403,
    async (req, ctx) => withHeader(req, 'authorization', await ctx.adminAuthorization()),
    (req) => !/json|\*\/\*/.test(req.headers.accept ?? '*/*'),
  ),
};

export const queryBeforeMediaType: Fault = {
  name: 'query-before-media-type',
  description: 'the query is validated before the media type: text/plain with a bad query is 400',
  expectedCheck: 'check_order',
  include: ['users', 'orders'],
  create: laterFailureWins(415, (req) => withHeader(req, 'content-type', 'application/json')),
};

export const resourceBeforeQuery: Fault = {
  name: 'resource-before-query',
  description: 'the resource is looked up before the query is validated: a bad query is 404',
  expectedCheck: 'check_order',
  include: ['users', 'orders'],
  create: laterFailureWins(400, (req) => ({ ...req, path: req.path.split('?')[0]! })),
};

export const bodyBeforePreconditions: Fault = {
  name: 'body-before-preconditions',
  description: 'the body is validated before If-Match: a stale tag with a bad body is 400',
  expectedCheck: 'check_order',
  include: ['users'],
  create: laterFailureWins(412, (req) => withHeader(req, 'if-match', undefined)),
};
