import { inputOf, selectedOf, type Exchange } from '../exchange.js';
import { checkPreconditions } from '../render-result.js';
import { isUnsafeMethod } from '../unsafe-method.js';

/**
 * 412 when an unsafe method's If-Match / If-None-Match does not hold against the current
 * representation, before the body is validated: a stale client learns that first.
 *
 * @example
 * await judgePreconditions(x); // PUT /api/v1/users/2 with a stale If-Match: throws the 412
 */
export async function judgePreconditions(x: Exchange): Promise<undefined> {
  const { handler } = selectedOf(x);
  if (isUnsafeMethod(x.method) && handler.current) {
    checkPreconditions(x.request.headers, await handler.current(inputOf(x)));
  }
  return undefined;
}
