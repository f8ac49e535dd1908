import type { SpecOperation } from '../../spec/operations.js';
import { sampleRequest } from './generic-rows.js';
import type { OperationRow } from './operation-row.js';

/**
 * One 429 row per operation that documents 429 (every one but OPTIONS: decision 0004), for a
 * server limited to one request a minute whose budgets (the admin's subject, the client
 * address, the login attempts) have already been spent.
 */
export function rateLimitRows(operations: readonly SpecOperation[]): OperationRow[] {
  return operations
    .filter((op) => op.responses['429'])
    .map((op) => ({
      operationId: op.operationId,
      status: 429,
      name: 'over the limit of one request a minute',
      request: sampleRequest(op),
    }));
}
