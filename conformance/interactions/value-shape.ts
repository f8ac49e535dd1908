/**
 * The shapes of JSON values, as a consumer relies on them: every field present in what the
 * frontend saw must be present in what the backend sends, with the same JSON type; arrays are
 * judged by their items; values are never compared (ids, dates and names differ by nature).
 * `null` on either side is not judged here: whether a field may be null is the schema's to say.
 * A recorded `<varies>` (a request id, a timestamp of the run, decision 0112) is a string whose
 * value is not worth comparing: the recorder masks strings only, so it stands for any string.
 */

export type JsonType = 'null' | 'array' | 'object' | 'string' | 'number' | 'boolean';

export function jsonType(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  const type = typeof value;
  return type === 'object' || type === 'string' || type === 'number' || type === 'boolean'
    ? type
    : 'null';
}

/** What comparing two values found: fields missing or retyped, and what could not be judged. */
export interface ShapeComparison {
  /** `content[].email: missing`, `age: number expected, string came back`. */
  differences: string[];
  /** Paths whose items could not be compared (the backend's array was empty). */
  unjudged: string[];
}

/**
 * Compares the backend's value with the one the frontend saw (`expected`): fields missing or
 * of another JSON type are differences; an array is compared item by item with the items the
 * frontend saw merged (a field counts when every item of the recording had it).
 *
 * @example
 * compareShapes({ id: 1, tags: ['a'] }, { id: 2, tags: [] }); // { differences: [], unjudged: ['tags[]'] }
 */
export function compareShapes(expected: unknown, actual: unknown): ShapeComparison {
  const out: ShapeComparison = { differences: [], unjudged: [] };
  compare(expected, actual, '', out);
  return out;
}

function compare(expected: unknown, actual: unknown, path: string, out: ShapeComparison): void {
  const want = jsonType(expected);
  const got = jsonType(actual);
  if (want === 'null' || got === 'null') return;
  const at = path || '(the body)';
  if (want !== got) {
    out.differences.push(`${at}: ${want} expected, ${got} came back`);
    return;
  }
  if (want === 'object') {
    const a = actual as Record<string, unknown>;
    for (const [key, value] of Object.entries(expected as Record<string, unknown>)) {
      const field = path ? `${path}.${key}` : key;
      if (!Object.prototype.hasOwnProperty.call(a, key)) out.differences.push(`${field}: missing`);
      else compare(value, a[key], field, out);
    }
  } else if (want === 'array') {
    const items = expected as unknown[];
    const received = actual as unknown[];
    if (items.length === 0) return;
    if (received.length === 0) {
      out.unjudged.push(`${path}[]`);
      return;
    }
    const template = items.reduce((a, b) => merge(a, b));
    const before = out.differences.length;
    for (const item of received) {
      compare(template, item, `${path}[]`, out);
      // One item saying it is enough: the others would repeat the same lines.
      if (out.differences.length > before) break;
    }
  }
}

/** The fields all of two recorded values share (a field only some items had is optional). */
function merge(a: unknown, b: unknown): unknown {
  const ta = jsonType(a);
  const tb = jsonType(b);
  if (ta === 'null') return b;
  if (tb === 'null') return a;
  if (ta !== tb) return null;
  if (ta === 'array') return [...(a as unknown[]), ...(b as unknown[])];
  if (ta !== 'object') return a;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const merged: Record<string, unknown> = {};
  for (const key of Object.keys(x))
    if (Object.prototype.hasOwnProperty.call(y, key)) merged[key] = merge(x[key], y[key]);
  return merged;
}

/** One field of a recorded body: its path (`content[].email`) and the JSON types it had. */
export interface FieldUse {
  path: string;
  types: JsonType[];
}

/**
 * Every field path of a recorded value with its JSON types, items of arrays under `[]`: what a
 * consumer's recording touches (the consumer coverage, decision 0113).
 *
 * @example
 * fieldPaths({ content: [{ id: 1 }], page: 0 }); // content (array), content[].id (number), page (number)
 */
export function fieldPaths(value: unknown): FieldUse[] {
  const found = new Map<string, Set<JsonType>>();
  const walk = (v: unknown, path: string) => {
    if (path) {
      const types = found.get(path) ?? new Set<JsonType>();
      types.add(jsonType(v));
      found.set(path, types);
    }
    if (Array.isArray(v)) for (const item of v) walk(item, `${path}[]`);
    else if (jsonType(v) === 'object')
      for (const [key, x] of Object.entries(v as Record<string, unknown>))
        walk(x, path ? `${path}.${key}` : key);
  };
  walk(value, '');
  return [...found].map(([path, types]) => ({ path, types: [...types].sort() }));
}
