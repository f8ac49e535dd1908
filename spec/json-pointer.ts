/**
 * Builds an RFC 6901 JSON Pointer from path segments.
 *
 * @example
 * jsonPointer(['paths', '/users/{id}', 'get']); // '/paths/~1users~1{id}/get'
 */
export function jsonPointer(segments: readonly (string | number)[]): string {
  return segments.map((s) => '/' + String(s).replace(/~/g, '~0').replace(/\//g, '~1')).join('');
}
