import { ApiProblem } from '../../domain/api-problem.js';
import { authenticate } from '../../domain/auth-service.js';
import { isBearerPresented, readBearerToken } from '../bearer-token.js';
import { selectedOf, type Exchange } from '../exchange.js';
import type { PipelineEnv } from '../pipeline-env.js';

/**
 * 401 on a secured operation without a valid token of a user who still exists and is not
 * BLOCKED (a token sent in two ways is the 400 judged here). Open operations pass untouched.
 *
 * @example
 * await authenticateCaller(x, env); // GET /api/v1/users/2 with a valid token: x.principal set
 */
export function authenticateCaller(x: Exchange, env: PipelineEnv): undefined | Promise<undefined> {
  const { operation } = selectedOf(x);
  if (!operation.security.some((requirement) => Object.keys(requirement).length > 0)) {
    return undefined;
  }
  const { headers, query } = x.request;
  // Decided before parsing: a malformed or misplaced token was presented all the same.
  x.tokenPresented = isBearerPresented(headers, query);
  const presented = readBearerToken(headers, query);
  if (presented.kind !== 'bearer') {
    throw new ApiProblem(
      'unauthenticated',
      'This operation needs an access token: send Authorization: Bearer <token>',
    );
  }
  return authenticate(env.ctx, presented.token).then((principal) => {
    x.principal = principal;
    return undefined;
  });
}
