import { inputOf, selectedOf, type Exchange } from '../exchange.js';

/**
 * 403 when the caller may not act on the resource the request names (a USER changing a user
 * who holds ADMIN), by the domain's own rule. It needs the resource, so it comes after 404
 * resource; it comes before 412 because a server ignores preconditions when the request
 * without them would not succeed (RFC 9110 13.2.1), and before the body as the contract's 403
 * precedes every 400 of the body (decision 0075).
 *
 * @example
 * await authorizeTarget(x); // PATCH /api/v1/users/1 (an ADMIN) by a USER with a stale If-Match: throws the 403
 */
export async function authorizeTarget(x: Exchange): Promise<undefined> {
  await selectedOf(x).handler.authorizes?.(inputOf(x));
  return undefined;
}
