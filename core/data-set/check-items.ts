import type { OrderItemRecord } from '../domain/dataset.js';
import type { DataSetRun } from './checked-data-set.js';
import { duplicate, idsOf, isObject, kind, schemaProblems } from './record-checks.js';

/**
 * Checks the order items (schema, unique ids, an order that resolves); pushes each item that
 * passed to `run.data.items`.
 */
export function checkItems(run: DataSetRun, rawItems: unknown[], rawOrders: unknown[]): void {
  const { problem } = run;
  const itemIds = new Map<number, number>();
  const knownOrders = idsOf(rawOrders);
  rawItems.forEach((raw, index) => {
    const at = `/items/${index}`;
    if (!isObject(raw)) return problem(at, `must be an object (got ${kind(raw)})`);
    const before = run.problems.length;
    // The schema names unknown fields itself (additionalProperties: false).
    schemaProblems(run.validators.item, raw, at, problem);
    if (typeof raw.id === 'number') duplicate(itemIds, raw.id, index, 'items', at, problem);
    if (typeof raw.orderId === 'number' && !knownOrders.has(raw.orderId))
      problem(`${at}/orderId`, `order ${raw.orderId} is not in orders`);
    if (run.problems.length > before) return;
    run.data.items.push(raw as unknown as OrderItemRecord);
  });
}
