import type { Order } from '../../domain/dto.js';
import type { DomainContext } from '../../domain/ports.js';
import { getUser } from '../../domain/users-service.js';
import {
  cancelOrder,
  createUserOrder,
  deleteUserOrder,
  getOrder,
  getOrderItem,
  getUserOrder,
  listUserOrders,
  replaceUserOrder,
  updateUserOrder,
} from '../../domain/orders-service.js';
import type { HandlerGroup } from './handler-table.js';
import { representation, type OperationResult } from './operation-handler.js';

/** The input of every operation on `/users/{userId}/orders/{orderId}`. */
interface UserOrderInput {
  ctx: DomainContext;
  path: { userId: number; orderId: number };
}

const current = ({ ctx, path }: UserOrderInput) => getUserOrder(ctx, path.userId, path.orderId);

/** 201 with the new order: also the answer an Idempotency-Key commits with the write. */
function createdOrder(order: Order): OperationResult {
  return {
    status: 201,
    body: order,
    etag: 'strong',
    lastModified: order.updatedAt,
    location: `/users/${order.userId}/orders/${order.id}`,
  };
}

export const orderHandlers = {
  listUserOrders: {
    run: async (input) => ({
      status: 200,
      body: await listUserOrders(input.ctx, input.path.userId, input.query.status),
      etag: 'weak',
    }),
  },
  createUserOrder: {
    requires: async (input) => void (await getUser(input.ctx, input.path.userId)),
    run: async (input) =>
      createdOrder(await createUserOrder(input.ctx, input.path.userId, input.body)),
    answers: createdOrder,
  },
  getUserOrder: { run: (input) => representation(current(input)) },
  replaceUserOrder: {
    current,
    async run({ ctx, path, body, precondition }) {
      return {
        status: 200,
        body: await replaceUserOrder(ctx, path.userId, path.orderId, body, precondition),
      };
    },
  },
  updateUserOrder: {
    current,
    async run({ ctx, path, body, precondition }) {
      const order = await updateUserOrder(ctx, path.userId, path.orderId, body, precondition);
      return { status: 200, body: order, etag: 'strong', lastModified: order.updatedAt };
    },
  },
  deleteUserOrder: {
    current,
    async run({ ctx, path, precondition }) {
      await deleteUserOrder(ctx, path.userId, path.orderId, precondition);
      return { status: 204 };
    },
  },
  getOrder: {
    run: (input) => representation(getOrder(input.ctx, input.path.id, input.query.expand ?? [])),
  },
  cancelOrder: {
    requires: async (input) => void (await getOrder(input.ctx, input.path.id)),
    async run(input) {
      return { status: 200, body: await cancelOrder(input.ctx, input.path.id) };
    },
  },
  getOrderItem: { run: (input) => representation(getOrderItem(input.ctx, input.path.id)) },
} satisfies HandlerGroup;
