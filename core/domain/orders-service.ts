import { ApiProblem } from './api-problem.js';
import { applyChange } from './apply-change.js';
import { requireKnownCategory } from './categories.js';
import type { OrderRecord, OrderStatus } from './dataset.js';
import type { CreateOrderRequest, Order, ReplaceOrderRequest, UpdateOrderRequest } from './dto.js';
import { inIdOrder } from './in-id-order.js';
import type { DomainContext } from './ports.js';
import type { Resource } from './resource.js';
import { toOrderDto } from './order-dto.js';
import { deleteItemsOf, insertItems } from './order-items.js';
import { requireOrderOfUser } from './order-rules.js';
import { assertPending, assertTransition } from './order-transitions.js';
import { requireUser } from './user-rules.js';

export { toOrderDto, type OrderExpansion } from './order-dto.js';
export { cancelOrder, getOrder, getOrderItem, type OrderExpandName } from './order-resources.js';

/**
 * The orders of a user, by id, optionally of one status. An absent user is 404.
 *
 * @example
 * listUserOrders(ctx, 2, 'PENDING');
 */
export function listUserOrders(ctx: DomainContext, userId: number, status?: OrderStatus): Order[] {
  const { data } = ctx.store;
  requireUser(data, userId);
  return inIdOrder(data.orders, data.counters.orders)
    .filter((order) => order.userId === userId && (!status || order.status === status))
    .map((order) => toOrderDto(order, data));
}

/**
 * Places a PENDING order with its items for a user. Checked in this order: absent user 404,
 * BLOCKED user 409 `conflict`, unknown category 422 `unknown-reference`.
 *
 * @example
 * const order = await createUserOrder(ctx, 2, { product: 'Dune', categoryId: 1, items: [] });
 */
export function createUserOrder(
  ctx: DomainContext,
  userId: number,
  input: CreateOrderRequest,
): Promise<Order> {
  return applyChange<Order>(ctx.store, (data) => {
    const user = requireUser(data, userId);
    if (user.status === 'BLOCKED') {
      throw new ApiProblem('conflict', `User ${userId} is BLOCKED and cannot place orders.`);
    }
    requireKnownCategory(input.categoryId);
    return {
      apply: () => {
        const now = ctx.clock().toISOString();
        const id = ++data.counters.orders;
        const order: OrderRecord = {
          id,
          userId,
          product: input.product,
          categoryId: input.categoryId,
          status: 'PENDING',
          createdAt: now,
          updatedAt: now,
        };
        data.orders[String(id)] = order;
        insertItems(data, id, input.items ?? []);
        return toOrderDto(order, data);
      },
    };
  });
}

/**
 * An order of a user with its modification time; 404 when the user or the order is absent, or
 * the order belongs to someone else.
 *
 * @example
 * const { body, lastModified } = getUserOrder(ctx, 2, 7);
 */
export function getUserOrder(ctx: DomainContext, userId: number, orderId: number): Resource<Order> {
  const { data } = ctx.store;
  const order = requireOrderOfUser(data, userId, orderId);
  return { body: toOrderDto(order, data), lastModified: order.updatedAt };
}

/**
 * `PUT` of an order: replaces product, category and items (items not sent: none; the old
 * items are deleted and the new ones get new ids) while PENDING (else 409). Read-only fields
 * are ignored; an unknown category is 422. Orders are never created by PUT: absent is 404.
 *
 * @example
 * await replaceUserOrder(ctx, 2, 7, { product: 'Dune', categoryId: 1 });
 */
export function replaceUserOrder(
  ctx: DomainContext,
  userId: number,
  orderId: number,
  input: ReplaceOrderRequest,
): Promise<Order> {
  return applyChange<Order>(ctx.store, (data) => {
    const order = requireOrderOfUser(data, userId, orderId);
    assertPending(order);
    requireKnownCategory(input.categoryId);
    return {
      apply: () => {
        order.product = input.product;
        order.categoryId = input.categoryId;
        deleteItemsOf(data, order.id);
        insertItems(data, order.id, input.items ?? []);
        order.updatedAt = ctx.clock().toISOString();
        return toOrderDto(order, data);
      },
    };
  });
}

/**
 * `PATCH` of an order (JSON merge patch) of status, product and categoryId, judged on the
 * order as it was before the patch and applied all or nothing: a status must follow the state
 * machine (the current status is a no-op), product and category change only while PENDING
 * (409), an unknown category is 422. A patch that changes nothing writes nothing.
 *
 * @example
 * await updateUserOrder(ctx, 2, 7, { status: 'PAID' });
 */
export function updateUserOrder(
  ctx: DomainContext,
  userId: number,
  orderId: number,
  patch: UpdateOrderRequest,
): Promise<Order> {
  return applyChange<Order>(ctx.store, (data) => {
    const order = requireOrderOfUser(data, userId, orderId);
    const status =
      patch.status !== undefined && patch.status !== order.status ? patch.status : undefined;
    const product =
      patch.product !== undefined && patch.product !== order.product ? patch.product : undefined;
    const categoryId =
      patch.categoryId !== undefined && patch.categoryId !== order.categoryId
        ? patch.categoryId
        : undefined;
    if (status !== undefined) assertTransition(order, status);
    if (product !== undefined || categoryId !== undefined) assertPending(order);
    if (categoryId !== undefined) requireKnownCategory(categoryId);
    if (status === undefined && product === undefined && categoryId === undefined) {
      return { unchanged: toOrderDto(order, data) };
    }
    return {
      apply: () => {
        if (status !== undefined) order.status = status;
        if (product !== undefined) order.product = product;
        if (categoryId !== undefined) order.categoryId = categoryId;
        order.updatedAt = ctx.clock().toISOString();
        return toOrderDto(order, data);
      },
    };
  });
}

/**
 * Deletes an order in any status, with its items. 404 as for {@link getUserOrder}.
 *
 * @example
 * await deleteUserOrder(ctx, 2, 7);
 */
export async function deleteUserOrder(
  ctx: DomainContext,
  userId: number,
  orderId: number,
): Promise<void> {
  await applyChange<void>(ctx.store, (data) => {
    const order = requireOrderOfUser(data, userId, orderId);
    return {
      apply: () => {
        deleteItemsOf(data, order.id);
        delete data.orders[String(order.id)];
      },
    };
  });
}
