import type { Dataset, OrderRecord } from './dataset.js';
import type { Order } from './dto.js';
import { itemsOfOrder, toOrderItemDto } from './order-items.js';

/** Which related resources to embed in an order (`?expand=user,items`). */
export interface OrderExpansion {
  user?: boolean;
  items?: boolean;
}

/**
 * The wire shape of an order: unexpanded unless asked, so every response but an expanded
 * `GET /orders/{id}` has the same fields.
 *
 * @example
 * toOrderDto(order, data, { user: true, items: true });
 */
export function toOrderDto(order: OrderRecord, data: Dataset, expand: OrderExpansion = {}): Order {
  const owner = expand.user ? data.users[String(order.userId)] : undefined;
  return {
    id: order.id,
    product: order.product,
    userId: order.userId,
    categoryId: order.categoryId,
    status: order.status,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
    ...(owner ? { user: { id: owner.id, name: owner.name } } : {}),
    ...(expand.items ? { items: itemsOfOrder(data, order.id).map(toOrderItemDto) } : {}),
  };
}
