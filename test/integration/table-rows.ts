import type { SpecOperation } from '../../spec/operations.js';
import { accountRows } from './account-rows.js';
import { catalogRows } from './catalog-rows.js';
import { genericRows } from './generic-rows.js';
import type { OperationRow } from './operation-row.js';
import { optionsRows } from './options-rows.js';
import { orderChangeRows } from './order-change-rows.js';
import { orderRows } from './order-rows.js';
import { userChangeRows } from './user-change-rows.js';
import { userRows } from './user-rows.js';

/**
 * The table's rows that need nothing but a healthy server with limits off: every operation x
 * documented status but 429 (rate-limit-rows.ts) and a failing disk (store-failure-rows.ts).
 * Run by operations.test.ts on the file store and by test/postgres/ on PostgreSQL.
 */
export function operationTableRows(operations: SpecOperation[]): OperationRow[] {
  return [
    ...userRows,
    ...userChangeRows,
    ...orderRows,
    ...orderChangeRows,
    ...catalogRows,
    ...accountRows,
    ...optionsRows(operations),
    ...genericRows(operations),
  ];
}

/** Rows with their index and a title for `it.each` (`$title`). */
export function labelRows<R extends OperationRow>(rows: R[]) {
  return rows.map((row, index) => ({
    ...row,
    index,
    title: `${row.operationId} ${row.status} ${row.name}`,
  }));
}
