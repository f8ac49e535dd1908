import { ApiProblem } from './api-problem.js';
import { applyChange } from './apply-change.js';
import type { Order, OrderItem } from './dto.js';
import type { DomainContext } from './ports.js';
import type { Resource } from './resource.js';
import { toOrderDto } from './order-dto.js';
import { toOrderItemDto } from './order-items.js';
import { requireOrder } from './order-rules.js';
import { assertTransition } from './order-transitions.js';

/** A related resource `GET /orders/{id}?expand=` may embed. */
export type OrderExpandName = 'user' | 'items';

function newest(a: string, b: string): string {
  return Date.parse(b) > Date.parse(a) ? b : a;
}

/**
 * An order by its own id, with the requested related resources embedded. Its modification
 * time is the newest of the order (which items share) and, when embedded, its user.
 *
 * @example
 * const { body } = getOrder(ctx, 7, ['user', 'items']);
 */
export function getOrder(
  ctx: DomainContext,
  id: number,
  expand: readonly OrderExpandName[] = [],
): Resource<Order> {
  const { data } = ctx.store;
  const order = requireOrder(data, id);
  const withUser = expand.includes('user');
  const owner = withUser ? data.users[String(order.userId)] : undefined;
  return {
    body: toOrderDto(order, data, { user: withUser, items: expand.includes('items') }),
    lastModified: owner ? newest(order.updatedAt, owner.updatedAt) : order.updatedAt,
  };
}

/**
 * `POST /orders/{id}/cancel`: PENDING or PAID -> CANCELLED; already CANCELLED is a no-op;
 * SHIPPED or DELIVERED is 409 `invalid-state-transition`.
 *
 * @example
 * const order = await cancelOrder(ctx, 7); // order.status === 'CANCELLED'
 */
export function cancelOrder(ctx: DomainContext, id: number): Promise<Order> {
  return applyChange<Order>(ctx.store, (data) => {
    const order = requireOrder(data, id);
    if (order.status === 'CANCELLED') return { unchanged: toOrderDto(order, data) };
    assertTransition(order, 'CANCELLED');
    return {
      apply: () => {
        order.status = 'CANCELLED';
        order.updatedAt = ctx.clock().toISOString();
        return toOrderDto(order, data);
      },
    };
  });
}

/**
 * An order item as a resource of its own; it takes its order's modification time.
 *
 * @example
 * getOrderItem(ctx, 12).body; // { id: 12, orderId: 7, product: '...', quantity: 1 }
 */
export function getOrderItem(ctx: DomainContext, id: number): Resource<OrderItem> {
  const { data } = ctx.store;
  const item = data.orderItems[String(id)];
  const order = item ? data.orders[String(item.orderId)] : undefined;
  if (!item || !order) throw new ApiProblem('not-found', `Order item ${id} does not exist.`);
  return { body: toOrderItemDto(item), lastModified: order.updatedAt };
}
