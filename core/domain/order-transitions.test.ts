import { describe, expect, it } from 'vitest';
import { ApiProblem } from './api-problem.js';
import type { OrderStatus } from './dataset.js';
import { assertPending, assertTransition, canTransition } from './order-transitions.js';
import { orderRecord } from '../../test/support/domain/test-dataset.js';

const STATUSES: OrderStatus[] = ['PENDING', 'PAID', 'SHIPPED', 'DELIVERED', 'CANCELLED'];
const ALLOWED = new Set([
  'PENDING>PAID',
  'PAID>SHIPPED',
  'SHIPPED>DELIVERED',
  'PENDING>CANCELLED',
  'PAID>CANCELLED',
]);

describe('order state machine', () => {
  const pairs = STATUSES.flatMap((from) => STATUSES.map((to) => [from, to] as const));
  it.each(pairs)('%s -> %s', (from, to) => {
    expect(canTransition(from, to)).toBe(ALLOWED.has(`${from}>${to}`));
  });

  it('names both ends when refusing', () => {
    const order = orderRecord(8, 2, { status: 'DELIVERED' });
    expect(() => assertTransition(order, 'CANCELLED')).toThrow(
      'Order 8 cannot go from DELIVERED to CANCELLED.',
    );
    try {
      assertTransition(order, 'PAID');
    } catch (error) {
      expect((error as ApiProblem).slug).toBe('invalid-state-transition');
    }
  });

  it.each(STATUSES.filter((status) => status !== 'PENDING'))(
    'only PENDING may change its content (%s is a conflict)',
    (status) => {
      expect(() => assertPending(orderRecord(1, 1, { status }))).toThrow(ApiProblem);
      expect(() => assertPending(orderRecord(1, 1))).not.toThrow();
    },
  );
});
