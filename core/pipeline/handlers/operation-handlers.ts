import { accountHandlers } from './account-handlers.js';
import { catalogHandlers } from './catalog-handlers.js';
import type { OperationHandler } from './operation-handler.js';
import { orderHandlers } from './order-handlers.js';
import { userHandlers } from './user-handlers.js';

/** Every operation of the contract by operationId; a test checks it covers the spec exactly. */
export const operationHandlers: Readonly<Record<string, OperationHandler>> = {
  ...userHandlers,
  ...orderHandlers,
  ...catalogHandlers,
  ...accountHandlers,
};
