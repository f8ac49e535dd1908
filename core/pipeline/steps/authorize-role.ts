import { ApiProblem } from '../../domain/api-problem.js';
import { selectedOf, type Exchange } from '../exchange.js';
import { requiredRole } from '../../../spec/apikit-extensions.js';

/**
 * 403 when the operation's `x-apikit-role` is ADMIN and the caller is not. Only an
 * authenticated caller has a role to judge: open operations pass.
 *
 * @example
 * authorizeRole(x); // GET /api/v1/users by a USER: throws the 403 'forbidden'
 */
export function authorizeRole(x: Exchange): undefined {
  if (!x.principal) return undefined;
  const { operation } = selectedOf(x);
  if (requiredRole(operation) === 'ADMIN' && !x.principal.isAdmin) {
    throw new ApiProblem('forbidden', `${operation.operationId} needs the ADMIN role`);
  }
  return undefined;
}
