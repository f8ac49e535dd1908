/**
 * The `x-apikit-*` extensions of lists, catalogs and resources made under others (decision
 * 0091), read here and exported through `apikit-extensions.ts` like every other reader. A
 * value of the wrong type counts as absent.
 */
import type { OpenAPIV3 } from 'openapi-types';

type HasOperation = { operation: OpenAPIV3.OperationObject };
type Obj = Record<string, unknown>;

function declared(op: HasOperation, name: string): Obj | undefined {
  const value: unknown = (op.operation as Obj)[name];
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Obj)
    : undefined;
}
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);
const strings = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : Array.isArray(v) ? v.filter((s) => typeof s === 'string') : [];
const status = (v: unknown, fallback: number): number =>
  Number.isInteger(v) ? (v as number) : fallback;

/** How a list GET orders its items (`x-apikit-sort`). */
export interface SortOrder {
  /** The property items are ordered by, ascending, when no sort is asked for. */
  default: string;
  /** The query parameter taking `field` or `field,asc|desc`, repeatable; its fields are its pattern's. */
  param: string | undefined;
  /** The property that breaks ties, ascending, whatever the direction (default: `default`). */
  tieBreak: string;
  /** Where null (or absent) values sort, in either direction. */
  nulls: 'last' | 'first' | undefined;
}

/**
 * `x-apikit-sort: { default, param, tieBreak, nulls }` on a GET of a list: its items come
 * ordered by `default` ascending; with `param`, by the keys asked for, ties broken by
 * `tieBreak` ascending, nulls where `nulls` says; strings compare by code point.
 *
 * @example
 * // x-apikit-sort: { default: id, param: sort, tieBreak: id, nulls: last }
 * sortOrder(operationsById.get('listUsers')!)?.param; // 'sort'
 */
export function sortOrder(op: HasOperation): SortOrder | undefined {
  const d = declared(op, 'x-apikit-sort');
  const by = str(d?.default);
  if (!d || !by) return undefined;
  const nulls = d.nulls === 'last' || d.nulls === 'first' ? d.nulls : undefined;
  return { default: by, param: str(d.param), tieBreak: str(d.tieBreak) ?? by, nulls };
}

/**
 * `x-apikit-fixed-catalog: { item }` on a GET of a list: it answers exactly the first example
 * of its 200 answer, always; `item`, the GET of one entry by its id, answers that entry.
 */
export function fixedCatalog(op: HasOperation): { item: string | undefined } | undefined {
  const d = declared(op, 'x-apikit-fixed-catalog');
  return d ? { item: str(d.item) } : undefined;
}

/** A request property that names a resource of a list (`x-apikit-references`). */
export interface Reference {
  field: string;
  /** The operationId of the GET listing every resource the field may name (by `id`). */
  list: string;
  /** The status of a well-formed body naming none of them. */
  status: number;
}

/**
 * `x-apikit-references: [{ field, list, status }]` on a write: the body's `field` must be the
 * `id` of an item `list` answers; a valid body naming another is refused with `status`.
 */
export function referencesOf(op: HasOperation): Reference[] | undefined {
  const listed: unknown = (op.operation as Obj)['x-apikit-references'];
  const refs = (Array.isArray(listed) ? listed : []).flatMap((r: unknown) => {
    if (typeof r !== 'object' || r === null) return [];
    const field = str(Reflect.get(r, 'field'));
    const list = str(Reflect.get(r, 'list'));
    return field && list ? [{ field, list, status: status(Reflect.get(r, 'status'), 422) }] : [];
  });
  return refs.length > 0 ? refs : undefined;
}

/**
 * `x-apikit-parent-states: { refused, status }` on a create under another resource (reached
 * by a link of that resource's create, which declares its state machine): while the parent
 * is in one of `refused`, the create is refused with `status`.
 */
export function parentStates(op: HasOperation): { refused: string[]; status: number } | undefined {
  const d = declared(op, 'x-apikit-parent-states');
  const refused = strings(d?.refused);
  return d && refused.length > 0 ? { refused, status: status(d.status, 409) } : undefined;
}

/**
 * `x-apikit-writable-in: { states, operations, status }` on a create declaring a state
 * machine: the named writes (reached by its links) change the resource only while it is in
 * one of `states`; in any other they are refused with `status` and change nothing.
 */
export function writableIn(
  op: HasOperation,
): { states: string[]; operations: string[]; status: number } | undefined {
  const d = declared(op, 'x-apikit-writable-in');
  const states = strings(d?.states);
  const operations = strings(d?.operations);
  return d && states.length > 0 && operations.length > 0
    ? { states, operations, status: status(d.status, 409) }
    : undefined;
}

/**
 * `x-apikit-scoped: { parameter, status }` on a create under another resource: what it makes
 * is reached through its links only with the value of path parameter `parameter` it was made
 * under; another parent's value (an order under another user) answers `status`.
 */
export function scopedBy(op: HasOperation): { parameter: string; status: number } | undefined {
  const d = declared(op, 'x-apikit-scoped');
  const parameter = str(d?.parameter);
  return d && parameter ? { parameter, status: status(d.status, 404) } : undefined;
}

/** Items a resource holds in an array property (`x-apikit-items`). */
export interface EmbeddedItems {
  /** The request and representation property holding the items. */
  property: string;
  /** The property of each item holding the `id` of the resource it belongs to. */
  parent: string | undefined;
  /** The name of a link of the create's answer reading the resource with its items. */
  read: { link: string; query: Record<string, string> };
  /** The operationId of the GET of one item by its `id`. */
  item: string | undefined;
  /** operationIds of PUTs replacing the items: items not sent become `[]`. */
  replace: string[];
  /**
   * An item has no date of its own: its GET at `item` carries `Last-Modified` from the resource
   * holding it (that resource's `x-apikit-http.lastModifiedProperty`, to the second).
   */
  datedByParent: boolean;
}

/**
 * `x-apikit-items: { property, parent, read: { link, query }, item, replace, datedByParent }`
 * on a create: its resources hold items in `property`, each naming the resource in `parent`,
 * read back through the link `read` (with `query`, e.g. `expand=items`), each also at `item`
 * (dated by the resource holding it, with `datedByParent: true`); a PUT named in `replace`
 * replaces them (items not sent become `[]`).
 */
export function embeddedItems(op: HasOperation): EmbeddedItems | undefined {
  const d = declared(op, 'x-apikit-items');
  const property = str(d?.property);
  const read = d && typeof d.read === 'object' && d.read !== null ? (d.read as Obj) : undefined;
  const link = str(read?.link);
  if (!d || !property || !link) return undefined;
  const query = Object.fromEntries(
    Object.entries(typeof read?.query === 'object' && read.query ? read.query : {}).map(
      ([k, v]) => [k, String(v)],
    ),
  );
  return {
    property,
    parent: str(d.parent),
    read: { link, query },
    item: str(d.item),
    replace: strings(d.replace),
    datedByParent: d.datedByParent === true,
  };
}
