import type { Dataset, OrderItemRecord } from './dataset.js';
import type { OrderItem } from './dto.js';
import { inIdOrder } from './in-id-order.js';

/** An item as a create or replace request carries it. */
export interface NewItem {
  product: string;
  quantity: number;
}

/**
 * The wire shape of an order item; it always names its order.
 *
 * @example
 * toOrderItemDto(data.orderItems['12']); // { id: 12, orderId: 7, product: '...', quantity: 1 }
 */
export function toOrderItemDto(item: OrderItemRecord): OrderItem {
  return { id: item.id, orderId: item.orderId, product: item.product, quantity: item.quantity };
}

/**
 * The items of an order, by id.
 *
 * @example
 * itemsOfOrder(data, 7).map(toOrderItemDto);
 */
export function itemsOfOrder(data: Dataset, orderId: number): OrderItemRecord[] {
  return inIdOrder(data.orderItems, data.counters.orderItems).filter(
    (item) => item.orderId === orderId,
  );
}

/**
 * Adds items to an order, each at the next order-item id. Call only inside `store.write`.
 *
 * @example
 * insertItems(data, order.id, input.items ?? []);
 */
export function insertItems(data: Dataset, orderId: number, items: readonly NewItem[]): void {
  for (const { product, quantity } of items) {
    const id = ++data.counters.orderItems;
    data.orderItems[String(id)] = { id, orderId, product, quantity };
  }
}

/**
 * Deletes every item of an order. Call only inside `store.write`.
 *
 * @example
 * deleteItemsOf(data, order.id);
 */
export function deleteItemsOf(data: Dataset, orderId: number): void {
  for (const [key, item] of Object.entries(data.orderItems)) {
    if (item.orderId === orderId) delete data.orderItems[key];
  }
}
