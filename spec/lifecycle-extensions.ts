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
  /**
   * The items the deleted resource holds (`x-apikit-items` of the create that made it) go
   * with it: none of them can be read at its own GET afterwards (an order's items).
   */
  items: boolean;
}

/**
 * `x-apikit-cascade: { operations: [...], items: true }` on a DELETE: deleting the resource
 * deletes the resources the named operations made through its links (a user's orders, say),
 * and with `items`, the items it holds (an order's), so that none of them can be read
 * afterwards. Undefined when not declared (or naming neither).
 *
 * @example
 * // x-apikit-cascade: { operations: [createUserOrder] }
 * cascadeOf(operationsById.get('deleteUser')!)?.operations; // ['createUserOrder']
 * // x-apikit-cascade: { items: true }
 * cascadeOf(operationsById.get('deleteUserOrder')!)?.items; // true
 */
export function cascadeOf(op: { operation: OpenAPIV3.OperationObject }): Cascade | undefined {
  const declared: unknown = (op.operation as Record<string, unknown>)['x-apikit-cascade'];
  if (typeof declared !== 'object' || declared === null) return undefined;
  const listed: unknown = Reflect.get(declared, 'operations');
  const operations = Array.isArray(listed)
    ? listed.filter((id): id is string => typeof id === 'string')
    : [];
  const items = Reflect.get(declared, 'items') === true;
  return operations.length > 0 || items ? { operations, items } : undefined;
}

/** One list a new resource starts with items in: the link reading it and what it holds. */
export interface InitialItems {
  /** The name of a link of the creating operation's 2xx answer, to a GET of a list. */
  link: string;
  /** Each must match some item of the list: every property given, equal. */
  contains: Record<string, unknown>[];
}

/**
 * `x-apikit-initial-items: [{ link, contains }]` on a creating operation: each new resource,
 * read through the named link, lists items matching each object of `contains` (a new user's
 * roles hold `{ name: USER }`). Entries of the wrong type are dropped; none: undefined.
 *
 * @example
 * // x-apikit-initial-items: [{ link: ListUserRoles, contains: [{ name: USER }] }]
 * initialItems(operationsById.get('createUser')!)?.[0]?.contains; // [{ name: 'USER' }]
 */
export function initialItems(op: {
  operation: OpenAPIV3.OperationObject;
}): InitialItems[] | undefined {
  const declared: unknown = (op.operation as Record<string, unknown>)['x-apikit-initial-items'];
  const entries = (Array.isArray(declared) ? declared : []).flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const link: unknown = Reflect.get(entry, 'link');
    const listed: unknown = Reflect.get(entry, 'contains');
    const contains = (Array.isArray(listed) ? listed : []).filter(
      (c): c is Record<string, unknown> => typeof c === 'object' && c !== null && !Array.isArray(c),
    );
    return typeof link === 'string' && contains.length > 0 ? [{ link, contains }] : [];
  });
  return entries.length > 0 ? entries : undefined;
}
