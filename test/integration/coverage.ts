import type { SpecOperation } from '../../spec/operations.js';
import { pairKey } from './operation-row.js';

/** A documented (operation, status) pair the table deliberately does not reach, and why. */
export interface Exemption {
  operationId: string;
  status: number;
  reason: string;
}

/** Every `operationId status` pair the spec documents (explicit statuses; no ranges used). */
export function documentedPairs(operations: readonly SpecOperation[]): string[] {
  return operations.flatMap((op) =>
    Object.keys(op.responses).map((status) => pairKey(op.operationId, status)),
  );
}

/**
 * The pairs the table leaves out on purpose. Only 500: the spec documents it on every
 * operation because any server can fail, but the contract says it is "never for any input a
 * client can send", so a black-box table has no request that may reach it.
 */
export function exemptions(operations: readonly SpecOperation[]): Exemption[] {
  return operations
    .filter((op) => op.responses['500'])
    .map((op) => ({
      operationId: op.operationId,
      status: 500,
      reason: 'unexpected failure: the contract makes it unreachable by any client input',
    }));
}
