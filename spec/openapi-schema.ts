/**
 * OpenAPI 3.0 Schema Objects differ from the JSON Schema that ajv speaks in one way that
 * changes validation: `exclusiveMinimum`/`exclusiveMaximum` are booleans modifying
 * `minimum`/`maximum` (JSON Schema draft 6+ makes them numbers). This translates a schema,
 * returning the same object when nothing needs changing (so ajv's compile cache keeps
 * working) and one cached copy per schema when something does.
 *
 * @example
 * toJsonSchema({ type: 'number', minimum: 0, exclusiveMinimum: true });
 * // { type: 'number', exclusiveMinimum: 0 }
 */
export function toJsonSchema<T>(schema: T): T {
  return translate(schema, new Map()) as T;
}

const cache = new WeakMap<object, unknown>();

function translate(node: unknown, seen: Map<object, unknown>): unknown {
  if (node === null || typeof node !== 'object') return node;
  const cached = cache.get(node) ?? seen.get(node);
  if (cached !== undefined) return cached;
  seen.set(node, node); // cycles (recursive schemas) resolve to themselves until proven otherwise
  let changed = false;
  const copy: Record<string, unknown> | unknown[] = Array.isArray(node) ? [] : {};
  for (const [key, value] of Object.entries(node)) {
    const next = translate(value, seen);
    if (next !== value) changed = true;
    (copy as Record<string, unknown>)[key] = next;
  }
  if (!Array.isArray(node)) {
    const record = copy as Record<string, unknown>;
    for (const [flag, bound] of [
      ['exclusiveMinimum', 'minimum'],
      ['exclusiveMaximum', 'maximum'],
    ] as const) {
      if (typeof record[flag] !== 'boolean') continue;
      changed = true;
      if (record[flag] === true && typeof record[bound] === 'number') {
        record[flag] = record[bound];
        delete record[bound];
      } else delete record[flag];
    }
  }
  const result = changed ? copy : node;
  cache.set(node, result);
  return result;
}
