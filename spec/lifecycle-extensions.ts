/**
 * `x-apikit-cascade` (decision 0080), read here and exported through `apikit-extensions.ts`
 * like every other `x-apikit-*` reader. A value of the wrong type counts as absent.
 */
import type { OpenAPIV3 } from 'openapi-types';

/** What a DELETE's `x-apikit-cascade` declares: what goes with the resource it deletes. */
export interface Cascade {
  /**
   * operationIds of the operations that make resources under the deleted one (reached by a
   * link of it): every resource they made is deleted with it.
   */
  operations: string[];
}

/**
 * `x-apikit-cascade: { operations: [...] }` on a DELETE: deleting the resource deletes the
 * resources the named operations made through its links (a user's orders, say), so that none
 * of them can be read afterwards. Undefined when not declared (or naming no operation).
 *
 * @example
 * // x-apikit-cascade: { operations: [createUserOrder] }
 * cascadeOf(operationsById.get('deleteUser')!)?.operations; // ['createUserOrder']
 */
export function cascadeOf(op: { operation: OpenAPIV3.OperationObject }): Cascade | undefined {
  const declared: unknown = (op.operation as Record<string, unknown>)['x-apikit-cascade'];
  if (typeof declared !== 'object' || declared === null) return undefined;
  const listed: unknown = Reflect.get(declared, 'operations');
  const operations = Array.isArray(listed)
    ? listed.filter((id): id is string => typeof id === 'string')
    : [];
  return operations.length > 0 ? { operations } : undefined;
}
