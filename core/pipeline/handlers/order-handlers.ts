import type { OrderStatus } from '../../domain/dataset.js';
import { getUser } from '../../domain/users-service.js';
import type {
  CreateOrderRequest,
  ReplaceOrderRequest,
  UpdateOrderRequest,
} from '../../domain/dto.js';
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
  type OrderExpandName,
} from '../../domain/orders-service.js';
import {
  pathId,
  representation,
  type OperationHandler,
  type OperationInput,
} from './operation-handler.js';

const ids = (input: OperationInput) => [pathId(input, 'userId'), pathId(input, 'orderId')] as const;
const current = (input: OperationInput) => getUserOrder(input.ctx, ...ids(input));

export const orderHandlers: Record<string, OperationHandler> = {
  listUserOrders: {
    run: (input) => ({
      status: 200,
      body: listUserOrders(
        input.ctx,
        pathId(input, 'userId'),
        input.query.status as OrderStatus | undefined,
      ),
      etag: 'weak',
    }),
  },
  createUserOrder: {
    requires: (input) => void getUser(input.ctx, pathId(input, 'userId')),
    async run(input) {
      const order = await createUserOrder(
        input.ctx,
        pathId(input, 'userId'),
        input.body as CreateOrderRequest,
      );
      return {
        status: 201,
        body: order,
        etag: 'strong',
        lastModified: order.updatedAt,
        location: `/users/${order.userId}/orders/${order.id}`,
      };
    },
  },
  getUserOrder: { run: (input) => representation(current(input)) },
  replaceUserOrder: {
    current,
    async run(input) {
      return {
        status: 200,
        body: await replaceUserOrder(input.ctx, ...ids(input), input.body as ReplaceOrderRequest),
      };
    },
  },
  updateUserOrder: {
    current,
    async run(input) {
      const order = await updateUserOrder(
        input.ctx,
        ...ids(input),
        input.body as UpdateOrderRequest,
      );
      return { status: 200, body: order, etag: 'strong', lastModified: order.updatedAt };
    },
  },
  deleteUserOrder: {
    current,
    async run(input) {
      await deleteUserOrder(input.ctx, ...ids(input));
      return { status: 204 };
    },
  },
  getOrder: {
    run: (input) =>
      representation(
        getOrder(
          input.ctx,
          pathId(input),
          (input.query.expand as OrderExpandName[] | undefined) ?? [],
        ),
      ),
  },
  cancelOrder: {
    requires: (input) => void getOrder(input.ctx, pathId(input)),
    async run(input) {
      return { status: 200, body: await cancelOrder(input.ctx, pathId(input)) };
    },
  },
  getOrderItem: { run: (input) => representation(getOrderItem(input.ctx, pathId(input))) },
};
