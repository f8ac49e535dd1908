import { jsonPointer } from '../../spec/json-pointer.js';

/** A step into a body: a property name or an array index. */
export type Segment = string | number;

/** One change to a valid body that breaks one rule. */
export interface Mutation {
  description: string;
  segments: Segment[];
  /** The new value at `segments` given the current one; `REMOVE` deletes it. */
  change: (current: unknown) => unknown;
}

/** What a `Mutation`'s change returns to delete the value instead of replacing it. */
export const REMOVE = Symbol('remove');

/** The JSON Pointer fragment of a place in the body: `#`, `#/name`, `#/items/0/quantity`. */
export function bodyPointer(segments: readonly Segment[]): string {
  return `#${jsonPointer(segments)}`;
}

/** A copy of `root` with the value at `segments` changed (its parents must exist). */
export function applyAt(
  root: unknown,
  segments: Segment[],
  change: (current: unknown) => unknown,
): unknown {
  if (segments.length === 0) return change(root);
  let parent = root as Record<string | number, unknown>;
  for (const segment of segments.slice(0, -1)) {
    parent = parent[segment] as Record<string | number, unknown>;
  }
  const last = segments[segments.length - 1] as Segment;
  const next = change(parent[last]);
  if (next === REMOVE) delete parent[last];
  else parent[last] = next;
  return root;
}
