import { CATEGORIES } from '../domain/categories.js';
import type { OrderRecord } from '../domain/dataset.js';
import type { DataSetRun } from './checked-data-set.js';
import {
  datesInOrder,
  defined,
  duplicate,
  idsOf,
  isObject,
  kind,
  schemaProblems,
  time,
  unknownFields,
} from './record-checks.js';

const ORDER_FIELDS = new Set([
  'id',
  'userId',
  'product',
  'categoryId',
  'status',
  'createdAt',
  'updatedAt',
]);

/**
 * Checks the orders (schema, unknown fields, unique ids, owner and category that resolve, at
 * most the contract's items per order); pushes each order that passed to `run.data.orders`.
 */
export function checkOrders(
  run: DataSetRun,
  rawOrders: unknown[],
  rawUsers: unknown[],
  rawItems: unknown[],
): void {
  const { problem } = run;
  const orderIds = new Map<number, number>();
  // Sets, not a search per reference: a data set of 100,000 orders is checked in linear time.
  const knownUsers = idsOf(rawUsers);
  const itemsPerOrder = new Map<number, number>();
  rawItems.forEach((raw) => {
    if (isObject(raw) && typeof raw.orderId === 'number')
      itemsPerOrder.set(raw.orderId, (itemsPerOrder.get(raw.orderId) ?? 0) + 1);
  });

  rawOrders.forEach((raw, index) => {
    const at = `/orders/${index}`;
    if (!isObject(raw)) return problem(at, `must be an object (got ${kind(raw)})`);
    unknownFields(raw, ORDER_FIELDS, at, problem);
    const before = run.problems.length;
    const createdAt = time(raw.createdAt, run.nowIso);
    const dto = defined({
      id: raw.id,
      product: raw.product,
      userId: raw.userId,
      categoryId: raw.categoryId,
      status: raw.status ?? 'PENDING',
      createdAt,
      updatedAt: time(raw.updatedAt, createdAt),
    });
    schemaProblems(run.validators.order, dto, at, problem);
    datesInOrder(dto, at, problem);
    if (typeof raw.id === 'number') duplicate(orderIds, raw.id, index, 'orders', at, problem);
    if (typeof raw.userId === 'number' && !knownUsers.has(raw.userId))
      problem(`${at}/userId`, `user ${raw.userId} is not in users`);
    if (
      typeof raw.categoryId === 'number' &&
      !CATEGORIES.some((category) => category.id === raw.categoryId)
    ) {
      problem(
        `${at}/categoryId`,
        `category ${raw.categoryId} is not in the catalog (${CATEGORIES.map((c) => `${c.id} ${c.name}`).join(', ')})`,
      );
    }
    const max = run.validators.maxItemsPerOrder;
    const count = typeof raw.id === 'number' ? (itemsPerOrder.get(raw.id) ?? 0) : 0;
    if (count > max) problem(at, `has ${count} items; the contract allows at most ${max}`);
    if (run.problems.length > before) return;
    run.data.orders.push(dto as unknown as OrderRecord);
  });
}
