/**
 * Compares two strings by Unicode code point, the order the contract fixes for sorting. Neither
 * `<` (UTF-16 code units: U+FF01 would sort after U+1F600) nor `localeCompare` (locale- and
 * engine-dependent) gives it, so we look at the first differing code point ourselves.
 *
 * @example
 * ['b', 'B', 'a'].sort(compareCodePoints); // ['B', 'a', 'b']
 */
export function compareCodePoints(a: string, b: string): number {
  const length = Math.min(a.length, b.length);
  for (let i = 0; i < length; i++) {
    if (a.charCodeAt(i) !== b.charCodeAt(i)) {
      // At the first differing unit both strings agree on everything before it, so reading the
      // code point here compares whole characters (a differing low surrogate after an equal high
      // one orders the same as its code point would).
      return (a.codePointAt(i) ?? 0) - (b.codePointAt(i) ?? 0);
    }
  }
  return a.length - b.length;
}
