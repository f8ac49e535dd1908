import { inputOf, selectedOf, type Exchange } from '../exchange.js';

/**
 * 404 when a resource the operation acts on is absent, judged before 412 and before the body
 * is validated (the contract's check order), by the handler that knows its resource.
 *
 * @example
 * await requireResource(x); // POST /api/v1/admin/users/999/block: throws the 404
 */
export async function requireResource(x: Exchange): Promise<undefined> {
  await selectedOf(x).handler.requires?.(inputOf(x));
  return undefined;
}
