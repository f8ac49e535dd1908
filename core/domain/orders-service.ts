import { ApiProblem } from './api-problem.js';
import { requireKnownCategory } from './categories.js';
import type { OrderRecord, OrderStatus } from './dataset.js';
import type { CreateOrderRequest, Order, ReplaceOrderRequest, UpdateOrderRequest } from './dto.js';
import type { DomainContext } from './ports.js';
import { NO_PRECONDITION, type Precondition } from './precondition.js';
import type { Resource } from './resource.js';
import { toOrderDto } from './order-dto.js';
import { insertItems } from './order-items.js';
import { requireOrderOfUser } from './order-rules.js';
import { assertPending, assertTransition } from './order-transitions.js';
import { requireUser } from './user-rules.js';

export { toOrderDto, expandedOrderDto, type OrderExpansion } from './order-dto.js';
export { cancelOrder, getOrder, getOrderItem, type OrderExpandName } from './order-resources.js';

/**
 * The orders of a user, by id, optionally of one status. An absent user is 404.
 *
 * @example
 * await listUserOrders(ctx, 2, 'PENDING');
 */
export function listUserOrders(
  ctx: DomainContext,
  userId: number,
  status?: OrderStatus,
): Promise<Order[]> {
  return ctx.repo.snapshot(async (reader) => {
    await requireUser(reader, userId);
    return (await reader.ordersOfUser(userId, status)).map(toOrderDto);
  });
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
  return ctx.repo.transact(async (tx) => {
    const user = await requireUser(tx, userId);
    if (user.status === 'BLOCKED') {
      throw new ApiProblem('conflict', `User ${userId} is BLOCKED and cannot place orders.`);
    }
    requireKnownCategory(input.categoryId);
    const now = ctx.clock().toISOString();
    const order: OrderRecord = {
      id: await tx.nextId('orders'),
      userId,
      product: input.product,
      categoryId: input.categoryId,
      status: 'PENDING',
      createdAt: now,
      updatedAt: now,
    };
    await tx.putOrder(order);
    await insertItems(tx, order.id, input.items ?? []);
    return toOrderDto(order);
  });
}

/**
 * An order of a user with its modification time; 404 when the user or the order is absent, or
 * the order belongs to someone else.
 *
 * @example
 * const { body, lastModified } = await getUserOrder(ctx, 2, 7);
 */
export async function getUserOrder(
  ctx: DomainContext,
  userId: number,
  orderId: number,
): Promise<Resource<Order>> {
  return asResource(await requireOrderOfUser(ctx.repo, userId, orderId));
}

/** An order as a resource: what a GET answers and what preconditions are judged against. */
function asResource(order: OrderRecord): Resource<Order> {
  return { body: toOrderDto(order), lastModified: order.updatedAt };
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
  precondition: Precondition = NO_PRECONDITION,
): Promise<Order> {
  return ctx.repo.transact(async (tx) => {
    const current = await requireOrderOfUser(tx, userId, orderId);
    precondition(asResource(current));
    assertPending(current);
    requireKnownCategory(input.categoryId);
    const order: OrderRecord = {
      ...current,
      product: input.product,
      categoryId: input.categoryId,
      updatedAt: ctx.clock().toISOString(),
    };
    await tx.putOrder(order);
    await tx.deleteItemsOfOrder(order.id);
    await insertItems(tx, order.id, input.items ?? []);
    return toOrderDto(order);
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
  precondition: Precondition = NO_PRECONDITION,
): Promise<Order> {
  return ctx.repo.transact(async (tx) => {
    const order = await requireOrderOfUser(tx, userId, orderId);
    precondition(asResource(order));
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
      return toOrderDto(order);
    }
    const next: OrderRecord = {
      ...order,
      ...(status !== undefined ? { status } : {}),
      ...(product !== undefined ? { product } : {}),
      ...(categoryId !== undefined ? { categoryId } : {}),
      updatedAt: ctx.clock().toISOString(),
    };
    await tx.putOrder(next);
    return toOrderDto(next);
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
  precondition: Precondition = NO_PRECONDITION,
): Promise<void> {
  await ctx.repo.transact(async (tx) => {
    const order = await requireOrderOfUser(tx, userId, orderId);
    precondition(asResource(order));
    await tx.deleteOrder(order.id);
  });
}
