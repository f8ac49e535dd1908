import { expect } from 'vitest';
import type { Order } from './fixtures.js';
import type { OperationRow } from './operation-row.js';

const ORDER_BODY = { product: 'Dune', categoryId: 1, items: [{ product: 'Dune', quantity: 2 }] };

/** Rows of the order and order-item operations: each documented status but the generic ones. */
export const orderRows: OperationRow[] = [
  {
    operationId: 'listUserOrders',
    status: 200,
    name: "a user's orders, by id",
    request: { method: 'GET', path: '/users/2/orders' },
    check(res) {
      const orders = res.json<Order[]>();
      expect(orders.map((o) => o.id)).toEqual([7, 8]);
      expect(orders.every((o) => o.userId === 2 && o.user === undefined)).toBe(true);
    },
  },
  {
    operationId: 'listUserOrders',
    status: 304,
    name: 'If-None-Match with the weak ETag',
    setup: async (fx) => ({ etag: await fx.etagOf('/users/2/orders') }),
    request: { method: 'GET', path: '/users/2/orders', headers: { 'If-None-Match': '{etag}' } },
  },
  {
    operationId: 'listUserOrders',
    status: 400,
    name: 'an unknown status value',
    request: { method: 'GET', path: '/users/2/orders?status=LOST' },
    pointers: ['#/query/status'],
  },
  {
    operationId: 'listUserOrders',
    status: 404,
    name: 'an absent user',
    setup: async (fx) => ({ id: fx.absentId() }),
    request: { method: 'GET', path: '/users/{id}/orders' },
  },
  {
    operationId: 'createUserOrder',
    status: 201,
    name: 'a PENDING order with items; Location resolves to it',
    setup: async (fx) => ({ userId: (await fx.newUser()).id }),
    request: { method: 'POST', path: '/users/{userId}/orders', json: ORDER_BODY },
    check(res, { vars }) {
      const order = res.json<Order>();
      expect(order).toMatchObject({ userId: vars.userId, status: 'PENDING', product: 'Dune' });
      expect(res.headers.get('location')).toBe(`/api/v1/users/${vars.userId}/orders/${order.id}`);
    },
  },
  {
    operationId: 'createUserOrder',
    status: 400,
    name: 'every body violation listed',
    request: {
      method: 'POST',
      path: '/users/2/orders',
      json: { product: '', categoryId: 0, items: [{ product: 'x', quantity: 0 }] },
    },
    pointers: ['#/product', '#/categoryId', '#/items/0/quantity'],
  },
  {
    operationId: 'createUserOrder',
    status: 404,
    name: 'an absent user',
    setup: async (fx) => ({ id: fx.absentId() }),
    request: { method: 'POST', path: '/users/{id}/orders', json: ORDER_BODY },
  },
  {
    operationId: 'createUserOrder',
    status: 409,
    name: 'a BLOCKED user',
    async setup(fx) {
      const { id } = await fx.newUser();
      await fx.block(id);
      return { id };
    },
    request: { method: 'POST', path: '/users/{id}/orders', json: ORDER_BODY },
  },
  {
    operationId: 'createUserOrder',
    status: 422,
    name: 'an unknown categoryId',
    setup: async (fx) => ({ userId: (await fx.newUser()).id }),
    request: {
      method: 'POST',
      path: '/users/{userId}/orders',
      json: { product: 'Ghost', categoryId: 99 },
    },
  },
  {
    operationId: 'getUserOrder',
    status: 200,
    name: 'an order looked up by both ids',
    request: { method: 'GET', path: '/users/2/orders/7' },
    check(res) {
      expect(res.json()).toMatchObject({ id: 7, userId: 2, status: 'PENDING' });
    },
  },
  {
    operationId: 'getUserOrder',
    status: 304,
    name: 'If-None-Match with the current ETag',
    setup: async (fx) => ({ etag: await fx.etagOf('/users/2/orders/7') }),
    request: { method: 'GET', path: '/users/2/orders/7', headers: { 'If-None-Match': '{etag}' } },
  },
  {
    operationId: 'getUserOrder',
    status: 404,
    name: 'an order of another user',
    request: { method: 'GET', path: '/users/2/orders/1' },
  },
  {
    operationId: 'getOrder',
    status: 200,
    name: 'expand=user,items embeds both',
    request: { method: 'GET', path: '/orders/7?expand=user,items' },
    check(res) {
      const order = res.json<Order>();
      expect(order.user).toEqual({ id: 2, name: 'Uma User' });
      expect(order.items?.length).toBeGreaterThan(0);
      expect(order.items?.every((item) => item.orderId === 7)).toBe(true);
    },
  },
  {
    operationId: 'getOrder',
    status: 304,
    name: 'If-None-Match with the current ETag',
    setup: async (fx) => ({ etag: await fx.etagOf('/orders/7') }),
    request: { method: 'GET', path: '/orders/7', headers: { 'If-None-Match': '{etag}' } },
  },
  {
    operationId: 'getOrder',
    status: 400,
    name: 'an unknown expand name',
    request: { method: 'GET', path: '/orders/7?expand=owner' },
    pointers: ['#/query/expand'],
  },
  {
    operationId: 'getOrder',
    status: 404,
    name: 'an absent order',
    setup: async (fx) => ({ id: fx.absentId() }),
    request: { method: 'GET', path: '/orders/{id}' },
  },
  {
    operationId: 'cancelOrder',
    status: 200,
    name: 'PAID -> CANCELLED',
    setup: (fx) => fx.userWithOrder('PAID'),
    request: { method: 'POST', path: '/orders/{orderId}/cancel', json: {} },
    check(res) {
      expect(res.json()).toMatchObject({ status: 'CANCELLED' });
    },
  },
  {
    operationId: 'cancelOrder',
    status: 400,
    name: 'a body other than {}',
    request: { method: 'POST', path: '/orders/7/cancel', json: { reason: 'changed my mind' } },
    pointers: ['#', '#/reason'],
  },
  {
    operationId: 'cancelOrder',
    status: 404,
    name: 'an absent order',
    setup: async (fx) => ({ id: fx.absentId() }),
    request: { method: 'POST', path: '/orders/{id}/cancel' },
  },
  {
    operationId: 'cancelOrder',
    status: 409,
    name: 'a SHIPPED order',
    setup: (fx) => fx.userWithOrder('SHIPPED'),
    request: { method: 'POST', path: '/orders/{orderId}/cancel' },
  },
  {
    operationId: 'getOrderItem',
    status: 200,
    name: 'an item with its orderId',
    request: { method: 'GET', path: '/order-items/1' },
    check(res) {
      expect(res.json()).toEqual({ id: 1, orderId: 1, product: 'Clean Code', quantity: 1 });
    },
  },
  {
    operationId: 'getOrderItem',
    status: 304,
    name: 'If-None-Match with the current ETag',
    setup: async (fx) => ({ etag: await fx.etagOf('/order-items/1') }),
    request: { method: 'GET', path: '/order-items/1', headers: { 'If-None-Match': '{etag}' } },
  },
  {
    operationId: 'getOrderItem',
    status: 404,
    name: 'an absent item',
    setup: async (fx) => ({ id: fx.absentId() }),
    request: { method: 'GET', path: '/order-items/{id}' },
  },
];
