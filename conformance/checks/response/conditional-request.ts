import type { Exchange } from '../../http/target-client.js';

/** A header the request carried, by name in any letter case; undefined when it carried none. */
export function requestHeader(exchange: Exchange, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(exchange.request.headers))
    if (key.toLowerCase() === wanted) return value;
  return undefined;
}

/**
 * The entity tags of an `If-None-Match` (RFC 9110 13.1.2): `*`, or the tags it lists, weak or
 * strong; a value naming no tag lists none (and so matches nothing).
 *
 * @example
 * entityTags('"a", W/"b"'); // ['"a"', 'W/"b"']
 */
export function entityTags(value: string): '*' | string[] {
  if (value.trim() === '*') return '*';
  return value.match(/(W\/)?"[^"]*"/g) ?? [];
}

/** Weak comparison (RFC 9110 8.8.3.2): the opaque tags are equal, either may be weak. */
export function weakEqual(a: string, b: string): boolean {
  return a.replace(/^W\//, '') === b.replace(/^W\//, '');
}

/** A time in milliseconds cut to the second, the resolution of HTTP-dates (NaN stays NaN). */
export function toSecond(time: number): number {
  return Math.floor(time / 1000) * 1000;
}
