const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Whether a method changes state (RFC 9110 9.2.1): the methods whose If-Match and
 * If-None-Match are judged against the current representation.
 *
 * @example
 * isUnsafeMethod('PATCH'); // true
 */
export function isUnsafeMethod(method: string): boolean {
  return UNSAFE.has(method);
}
