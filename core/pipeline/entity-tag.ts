/**
 * Entity tags and date validators (RFC 9110 section 8.8 and 13). Tags are a hash of the exact
 * representation bytes, so any change of a field, an expansion or a format changes the tag,
 * and equal representations share it; the hash is synchronous and runtime-neutral (it runs in
 * browsers for the mocks).
 */

/** 106-bit hash of a string (two seeded cyrb53 rounds), as 27 base-36 characters at most. */
export function hashText(text: string): string {
  return cyrb53Pair(text, 0x9e3779b9, 0x85ebca6b);
}

/** The strong tag of a representation, e.g. `"3k9x..."`. */
export function strongETag(body: string): string {
  return `"${hashText(body)}"`;
}

/** The weak tag of a collection or page, e.g. `W/"3k9x..."`. */
export function weakETag(body: string): string {
  return `W/"${hashText(body)}"`;
}

/** Parses an If-Match / If-None-Match value: `*`, or the list of tags it names. */
export function parseETagList(header: string): '*' | string[] {
  if (header.trim() === '*') return '*';
  return header.match(/(W\/)?"[^"]*"/g) ?? [];
}

const opaque = (tag: string) => tag.replace(/^W\//, '');

/** Weak comparison (If-None-Match): equal opaque tags, either side may be weak. */
export function weakMatch(list: '*' | string[], current: string): boolean {
  return list === '*' || list.some((tag) => opaque(tag) === opaque(current));
}

/** Strong comparison (If-Match): both strong and equal. */
export function strongMatch(list: '*' | string[], current: string): boolean {
  if (list === '*') return true;
  return !current.startsWith('W/') && list.some((tag) => !tag.startsWith('W/') && tag === current);
}

/** HTTP-dates already made, by RFC 3339 time: a read answers the same record's time again and again. */
const httpDates = new Map<string, string>();
/** Bound of {@link httpDates}; it starts afresh when full (a fresh date is cheap, 2% of a read). */
const HTTP_DATES_MAX = 4096;

/** `Last-Modified` value from an RFC 3339 time: an HTTP-date, truncated to the second. */
export function httpDate(iso: string): string {
  let date = httpDates.get(iso);
  if (date === undefined) {
    date = new Date(iso).toUTCString();
    if (httpDates.size >= HTTP_DATES_MAX) httpDates.clear();
    httpDates.set(iso, date);
  }
  return date;
}

/** True when `lastModified` is not after the If-Modified-Since date (compared to the second). */
export function notModifiedSince(lastModified: string, ifModifiedSince: string): boolean {
  const since = Date.parse(ifModifiedSince);
  if (Number.isNaN(since)) return false; // an invalid date is ignored (RFC 9110 13.1.3)
  return Math.floor(Date.parse(lastModified) / 1000) <= Math.floor(since / 1000);
}

/**
 * `cyrb53(text, a).toString(36) + cyrb53(text, b).toString(36)` in one pass over the text:
 * the same tags, half the reads (a list page is kilobytes, hashed on every GET).
 */
function cyrb53Pair(text: string, seedA: number, seedB: number): string {
  let a1 = 0xdeadbeef ^ seedA;
  let a2 = 0x41c6ce57 ^ seedA;
  let b1 = 0xdeadbeef ^ seedB;
  let b2 = 0x41c6ce57 ^ seedB;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    a1 = Math.imul(a1 ^ ch, 2654435761);
    a2 = Math.imul(a2 ^ ch, 1597334677);
    b1 = Math.imul(b1 ^ ch, 2654435761);
    b2 = Math.imul(b2 ^ ch, 1597334677);
  }
  return finish(a1, a2).toString(36) + finish(b1, b2).toString(36);
}

function finish(h1: number, h2: number): number {
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
