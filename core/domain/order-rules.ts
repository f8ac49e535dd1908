import { ApiProblem } from './api-problem.js';
import type { Dataset, OrderRecord } from './dataset.js';
import { requireUser } from './user-rules.js';

/**
 * The order with this id, or 404 `not-found`.
 *
 * @example
 * const order = requireOrder(data, 7);
 */
export function requireOrder(data: Dataset, id: number): OrderRecord {
  const order = data.orders[String(id)];
  if (!order) throw new ApiProblem('not-found', `Order ${id} does not exist.`);
  return order;
}

/**
 * An order looked up by both path ids: 404 for an absent user, an absent order, or an order
 * of another user (which must not reveal that it exists).
 *
 * @example
 * const order = requireOrderOfUser(data, 2, 7);
 */
export function requireOrderOfUser(data: Dataset, userId: number, orderId: number): OrderRecord {
  requireUser(data, userId);
  const order = data.orders[String(orderId)];
  if (!order || order.userId !== userId) {
    throw new ApiProblem('not-found', `Order ${orderId} of user ${userId} does not exist.`);
  }
  return order;
}
