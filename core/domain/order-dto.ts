import type { OrderRecord } from './dataset.js';
import type { Order } from './dto.js';
import { toOrderItemDto } from './order-items.js';
import type { RepositoryReader } from '../repository/repository.js';

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
 * toOrderDto(order);
 */
export function toOrderDto(order: OrderRecord): Order {
  return {
    id: order.id,
    product: order.product,
    userId: order.userId,
    categoryId: order.categoryId,
    status: order.status,
    createdAt: order.createdAt,
    updatedAt: order.updatedAt,
  };
}

/**
 * An order with the related resources asked for, read through `reader` (a snapshot, so the
 * order, its owner and its items belong together), and the owner when embedded.
 *
 * @example
 * const { order: dto } = await expandedOrderDto(reader, order, { user: true, items: true });
 */
export async function expandedOrderDto(
  reader: RepositoryReader,
  order: OrderRecord,
  expand: OrderExpansion,
): Promise<{ order: Order; owner?: { updatedAt: string } }> {
  const owner = expand.user ? await reader.user(order.userId) : undefined;
  const items = expand.items ? await reader.itemsOfOrder(order.id) : undefined;
  return {
    order: {
      ...toOrderDto(order),
      ...(owner ? { user: { id: owner.id, name: owner.name } } : {}),
      ...(items ? { items: items.map(toOrderItemDto) } : {}),
    },
    ...(owner ? { owner } : {}),
  };
}
