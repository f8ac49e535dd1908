import type { RecordedRequest, RecordedResponse } from './interaction-file.js';

/**
 * The shape of a JSON value, as a canonical string: objects by their field names (sorted) and
 * the shapes of their values, arrays by the set of their items' shapes (sorted, each once: a
 * list of 2 users and one of 20 have the same shape), scalars by their JSON type. Values
 * never enter it: two tests that send and see the same structure make the same shape.
 */
export function shapeOf(value: unknown): string {
  if (value === undefined) return 'none';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `[${[...new Set(value.map(shapeOf))].sort().join('|')}]`;
  if (typeof value === 'object') {
    const fields = Object.keys(value as object)
      .sort()
      .map(
        (name) => `${JSON.stringify(name)}:${shapeOf((value as Record<string, unknown>)[name])}`,
      );
    return `{${fields.join(',')}}`;
  }
  return typeof value;
}

/**
 * The shape of one interaction: the names of its query parameters and headers (each once,
 * sorted), both bodies' shapes. Header and parameter values stay out, so that an ETag, a
 * request id or a rate-limit counter never makes a new shape of the same call.
 */
export function interactionShape(request: RecordedRequest, response: RecordedResponse): string {
  const names = (list: Iterable<string>) => [...new Set(list)].sort().join(',');
  return [
    `query=${names(request.query.map(([name]) => name))}`,
    `request-headers=${names(Object.keys(request.headers))}`,
    `request-body=${shapeOf(request.body)}`,
    `response-headers=${names(Object.keys(response.headers))}`,
    `response-body=${shapeOf(response.body)}`,
  ].join('\n');
}

/**
 * An interaction's key: `operationId status hash`, the hash a short one of its shape and of
 * whether the test canned the answer (`getUser 200 3f9a1c`): stable across runs, machines and
 * runtimes.
 */
export function interactionKey(
  operationId: string,
  request: RecordedRequest,
  response: RecordedResponse,
  canned?: 'override' | 'prefer',
): string {
  const shape = interactionShape(request, response) + (canned ? `\ncanned=${canned}` : '');
  return `${operationId} ${response.status} ${shortHash(shape)}`;
}

/** Six hex digits of the 32-bit FNV-1a hash of the text's UTF-16 code units. */
export function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0').slice(0, 6);
}
