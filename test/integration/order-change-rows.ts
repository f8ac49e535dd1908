import { expect } from 'vitest';
import type { Order } from './fixtures.js';
import type { OperationRow } from './operation-row.js';

const STALE_ETAG = '"stale-etag"';

/** Rows of PUT, PATCH and DELETE of a user's orders: each documented status but the generic ones. */
export const orderChangeRows: OperationRow[] = [
  {
    operationId: 'replaceUserOrder',
    status: 200,
    name: 'replaces a PENDING order; unsent items become []',
    setup: (fx) => fx.userWithOrder(),
    request: {
      method: 'PUT',
      path: '/users/{userId}/orders/{orderId}',
      json: { product: 'Replaced', categoryId: 2, status: 'DELIVERED' },
    },
    async check(res, { fx, vars }) {
      expect(res.json()).toMatchObject({ product: 'Replaced', categoryId: 2, status: 'PENDING' });
      expect(res.headers.get('etag')).toBeNull();
      const expanded = await fx.call('GET', `/orders/${vars.orderId}?expand=items`);
      expect(expanded.json<Order>().items).toEqual([]);
    },
  },
  {
    operationId: 'replaceUserOrder',
    status: 400,
    name: 'categoryId missing',
    setup: (fx) => fx.userWithOrder(),
    request: { method: 'PUT', path: '/users/{userId}/orders/{orderId}', json: { product: 'x' } },
    pointers: ['#/categoryId'],
  },
  {
    operationId: 'replaceUserOrder',
    status: 404,
    name: 'an absent order (PUT never creates orders)',
    setup: async (fx) => ({ id: fx.absentId() }),
    request: { method: 'PUT', path: '/users/2/orders/{id}', json: { product: 'x', categoryId: 1 } },
  },
  {
    operationId: 'replaceUserOrder',
    status: 409,
    name: 'an order no longer PENDING',
    setup: (fx) => fx.userWithOrder('SHIPPED'),
    request: {
      method: 'PUT',
      path: '/users/{userId}/orders/{orderId}',
      json: { product: 'x', categoryId: 1 },
    },
  },
  {
    operationId: 'replaceUserOrder',
    status: 412,
    name: 'If-Match that does not match',
    setup: (fx) => fx.userWithOrder(),
    request: {
      method: 'PUT',
      path: '/users/{userId}/orders/{orderId}',
      headers: { 'If-Match': STALE_ETAG },
      json: { product: 'x', categoryId: 1 },
    },
  },
  {
    operationId: 'replaceUserOrder',
    status: 422,
    name: 'an unknown categoryId',
    setup: (fx) => fx.userWithOrder(),
    request: {
      method: 'PUT',
      path: '/users/{userId}/orders/{orderId}',
      json: { product: 'x', categoryId: 99 },
    },
  },
  {
    operationId: 'deleteUserOrder',
    status: 204,
    name: 'deletes an order in any status with its items',
    setup: (fx) => fx.userWithOrder('DELIVERED'),
    request: { method: 'DELETE', path: '/users/{userId}/orders/{orderId}' },
    async check(_res, { fx, vars }) {
      expect((await fx.call('GET', `/orders/${vars.orderId}`)).status).toBe(404);
    },
  },
  {
    operationId: 'deleteUserOrder',
    status: 404,
    name: 'an absent order',
    setup: async (fx) => ({ id: fx.absentId() }),
    request: { method: 'DELETE', path: '/users/2/orders/{id}' },
  },
  {
    operationId: 'deleteUserOrder',
    status: 412,
    name: 'If-Match that does not match',
    setup: (fx) => fx.userWithOrder(),
    request: {
      method: 'DELETE',
      path: '/users/{userId}/orders/{orderId}',
      headers: { 'If-Match': STALE_ETAG },
    },
  },
  {
    operationId: 'updateUserOrder',
    status: 200,
    name: 'PENDING -> PAID, with validators',
    setup: (fx) => fx.userWithOrder(),
    request: {
      method: 'PATCH',
      path: '/users/{userId}/orders/{orderId}',
      json: { status: 'PAID' },
    },
    check(res) {
      expect(res.json()).toMatchObject({ status: 'PAID' });
    },
  },
  {
    operationId: 'updateUserOrder',
    status: 400,
    name: 'an unknown status value',
    setup: (fx) => fx.userWithOrder(),
    request: {
      method: 'PATCH',
      path: '/users/{userId}/orders/{orderId}',
      json: { status: 'LOST' },
    },
    pointers: ['#/status'],
  },
  {
    operationId: 'updateUserOrder',
    status: 404,
    name: 'an absent order',
    setup: async (fx) => ({ id: fx.absentId() }),
    request: { method: 'PATCH', path: '/users/2/orders/{id}', json: { status: 'PAID' } },
  },
  {
    operationId: 'updateUserOrder',
    status: 409,
    name: 'PENDING -> DELIVERED skips the state machine',
    setup: (fx) => fx.userWithOrder(),
    request: {
      method: 'PATCH',
      path: '/users/{userId}/orders/{orderId}',
      json: { status: 'DELIVERED' },
    },
  },
  {
    operationId: 'updateUserOrder',
    status: 412,
    name: 'If-Match that does not match',
    setup: (fx) => fx.userWithOrder(),
    request: {
      method: 'PATCH',
      path: '/users/{userId}/orders/{orderId}',
      headers: { 'If-Match': STALE_ETAG },
      json: { status: 'PAID' },
    },
  },
  {
    operationId: 'updateUserOrder',
    status: 422,
    name: 'an unknown categoryId',
    setup: (fx) => fx.userWithOrder(),
    request: {
      method: 'PATCH',
      path: '/users/{userId}/orders/{orderId}',
      json: { categoryId: 99 },
    },
  },
];
