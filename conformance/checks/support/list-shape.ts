import type { SpecOperation } from '../../../spec/operations.js';
import {
  isObject,
  itemSchema,
  properties,
  responseSchema,
  type Schema,
} from './stateful-support.js';

/** Where the items of a list answer are: the body itself, or one array property of it. */
export interface ListShape {
  itemSchema: Schema | undefined;
  /** The array property holding the items (`content`), or undefined for a plain array. */
  property: string | undefined;
  /** The properties of the page object (`totalElements`, `page`, ...); empty for an array. */
  pageProperties: Record<string, Schema>;
}

/**
 * The list shape of a GET's 200 answer: a plain array, or an object with a `content` array
 * (or exactly one array property and no `id`). Undefined when the answer is not a list.
 */
export function listShape(op: SpecOperation): ListShape | undefined {
  const schema = responseSchema(op, 200);
  if (!schema) return undefined;
  if (schema.type === 'array')
    return { itemSchema: itemSchema(schema), property: undefined, pageProperties: {} };
  const props = properties(schema);
  const arrays = Object.entries(props).filter(([, p]) => p.type === 'array');
  // A single resource may hold an array too (an order's items): an object with an `id` is
  // a resource, not a page, unless its array is called `content`.
  const chosen =
    arrays.find(([name]) => name === 'content') ??
    (arrays.length === 1 && props.id === undefined ? arrays[0] : undefined);
  if (!chosen) return undefined;
  return { itemSchema: itemSchema(chosen[1]), property: chosen[0], pageProperties: props };
}

/** The items of a parsed list answer, or undefined when it does not have the shape. */
export function itemsOf(shape: ListShape, body: unknown): unknown[] | undefined {
  const list =
    shape.property === undefined ? body : isObject(body) ? body[shape.property] : undefined;
  return Array.isArray(list) ? list : undefined;
}

/** What tells items apart: their `id` when they have one, else their whole JSON. */
export function identity(item: unknown): string {
  return isObject(item) && item.id !== undefined
    ? `id ${JSON.stringify(item.id)}`
    : JSON.stringify(item);
}
