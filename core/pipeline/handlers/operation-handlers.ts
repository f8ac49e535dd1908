import { accountHandlers } from './account-handlers.js';
import { catalogHandlers } from './catalog-handlers.js';
import type { HandlerTable } from './handler-table.js';
import type { OperationHandler } from './operation-handler.js';
import { orderHandlers } from './order-handlers.js';
import { userHandlers } from './user-handlers.js';

/** Every operation of the contract but OPTIONS, by operationId; a missing one does not compile. */
export const handlers: HandlerTable = {
  ...userHandlers,
  ...orderHandlers,
  ...catalogHandlers,
  ...accountHandlers,
};

/**
 * The same table for a lookup by the operationId of a routed request, a runtime string. The
 * per-operation input types are erased here: the pipeline validated the input against the
 * spec those types were generated from.
 */
export const operationHandlers: Readonly<Record<string, OperationHandler>> = handlers;

/**
 * The handler of a routed request's operation, if the contract has one (none for OPTIONS).
 *
 * @example
 * handlerFor('getUser')?.run(input);
 */
export function handlerFor(operationId: string): OperationHandler | undefined {
  return Object.hasOwn(operationHandlers, operationId) ? operationHandlers[operationId] : undefined;
}
