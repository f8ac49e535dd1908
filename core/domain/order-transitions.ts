import { ApiProblem } from './api-problem.js';
import type { OrderRecord, OrderStatus } from './dataset.js';

/** The order state machine: PENDING -> PAID -> SHIPPED -> DELIVERED, PENDING|PAID -> CANCELLED. */
const NEXT_STATUSES: Readonly<Record<OrderStatus, readonly OrderStatus[]>> = {
  PENDING: ['PAID', 'CANCELLED'],
  PAID: ['SHIPPED', 'CANCELLED'],
  SHIPPED: ['DELIVERED'],
  DELIVERED: [],
  CANCELLED: [],
};

/**
 * Whether an order may go from one status to another. Staying put is not a transition: callers
 * treat it as a no-op before asking.
 *
 * @example
 * canTransition('PAID', 'SHIPPED'); // true
 * canTransition('SHIPPED', 'CANCELLED'); // false
 */
export function canTransition(from: OrderStatus, to: OrderStatus): boolean {
  return NEXT_STATUSES[from].includes(to);
}

/**
 * Refuses a status change the state machine does not allow: 409 `invalid-state-transition`,
 * naming both ends.
 *
 * @example
 * assertTransition(order, 'CANCELLED');
 */
export function assertTransition(order: OrderRecord, to: OrderStatus): void {
  if (!canTransition(order.status, to)) {
    throw new ApiProblem(
      'invalid-state-transition',
      `Order ${order.id} cannot go from ${order.status} to ${to}.`,
    );
  }
}

/**
 * Product, category and items change only while an order is PENDING. This is not a status
 * transition, so the spec reports it as a plain 409 `conflict` (its `OrderNotPending` example).
 *
 * @example
 * assertPending(order);
 */
export function assertPending(order: OrderRecord): void {
  if (order.status !== 'PENDING') {
    throw new ApiProblem(
      'conflict',
      `Order ${order.id} is ${order.status}; only a PENDING order can be changed this way.`,
    );
  }
}
