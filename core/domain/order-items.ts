import type { OrderItemRecord } from './dataset.js';
import type { OrderItem } from './dto.js';
import type { RepositoryWriter } from '../repository/repository.js';

/** An item as a create or replace request carries it. */
export interface NewItem {
  product: string;
  quantity: number;
}

/**
 * The wire shape of an order item; it always names its order.
 *
 * @example
 * toOrderItemDto(item); // { id: 12, orderId: 7, product: '...', quantity: 1 }
 */
export function toOrderItemDto(item: OrderItemRecord): OrderItem {
  return { id: item.id, orderId: item.orderId, product: item.product, quantity: item.quantity };
}

/**
 * Adds items to an order, each at the next order-item id, in the order given.
 *
 * @example
 * await insertItems(tx, order.id, input.items ?? []);
 */
export async function insertItems(
  tx: RepositoryWriter,
  orderId: number,
  items: readonly NewItem[],
): Promise<void> {
  for (const { product, quantity } of items) {
    await tx.putOrderItem({ id: await tx.nextId('orderItems'), orderId, product, quantity });
  }
}
