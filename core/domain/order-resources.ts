import { ApiProblem } from './api-problem.js';
import type { Order, OrderItem } from './dto.js';
import type { DomainContext } from './ports.js';
import type { Resource } from './resource.js';
import { expandedOrderDto, toOrderDto } from './order-dto.js';
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
 * const { body } = await getOrder(ctx, 7, ['user', 'items']);
 */
export function getOrder(
  ctx: DomainContext,
  id: number,
  expand: readonly OrderExpandName[] = [],
): Promise<Resource<Order>> {
  return ctx.repo.snapshot(async (reader) => {
    const record = await requireOrder(reader, id);
    const { order, owner } = await expandedOrderDto(reader, record, {
      user: expand.includes('user'),
      items: expand.includes('items'),
    });
    return {
      body: order,
      lastModified: owner ? newest(record.updatedAt, owner.updatedAt) : record.updatedAt,
    };
  });
}

/**
 * `POST /orders/{id}/cancel`: PENDING or PAID -> CANCELLED; already CANCELLED is a no-op;
 * SHIPPED or DELIVERED is 409 `invalid-state-transition`.
 *
 * @example
 * const order = await cancelOrder(ctx, 7); // order.status === 'CANCELLED'
 */
export function cancelOrder(ctx: DomainContext, id: number): Promise<Order> {
  return ctx.repo.transact(async (tx) => {
    const current = await requireOrder(tx, id);
    if (current.status === 'CANCELLED') return toOrderDto(current);
    assertTransition(current, 'CANCELLED');
    const order = {
      ...current,
      status: 'CANCELLED' as const,
      updatedAt: ctx.clock().toISOString(),
    };
    await tx.putOrder(order);
    return toOrderDto(order);
  });
}

/**
 * An order item as a resource of its own; it takes its order's modification time.
 *
 * @example
 * (await getOrderItem(ctx, 12)).body; // { id: 12, orderId: 7, product: '...', quantity: 1 }
 */
export function getOrderItem(ctx: DomainContext, id: number): Promise<Resource<OrderItem>> {
  return ctx.repo.snapshot(async (reader) => {
    const item = await reader.orderItem(id);
    const order = item ? await reader.order(item.orderId) : undefined;
    if (!item || !order) throw new ApiProblem('not-found', `Order item ${id} does not exist.`);
    return { body: toOrderItemDto(item), lastModified: order.updatedAt };
  });
}
