import { ApiProblem } from './api-problem.js';
import type { OrderRecord } from './dataset.js';
import { requireUser } from './user-rules.js';
import type { RepositoryReader } from '../repository/repository.js';

/**
 * The order with this id, or 404 `not-found`.
 *
 * @example
 * const order = await requireOrder(tx, 7);
 */
export async function requireOrder(reader: RepositoryReader, id: number): Promise<OrderRecord> {
  const order = await reader.order(id);
  if (!order) throw new ApiProblem('not-found', `Order ${id} does not exist.`);
  return order;
}

/**
 * An order looked up by both path ids: 404 for an absent user, an absent order, or an order
 * of another user (which must not reveal that it exists).
 *
 * @example
 * const order = await requireOrderOfUser(tx, 2, 7);
 */
export async function requireOrderOfUser(
  reader: RepositoryReader,
  userId: number,
  orderId: number,
): Promise<OrderRecord> {
  await requireUser(reader, userId);
  const order = await reader.order(orderId);
  if (!order || order.userId !== userId) {
    throw new ApiProblem('not-found', `Order ${orderId} of user ${userId} does not exist.`);
  }
  return order;
}
