/**
 * Fetch's normalization of a header value: leading and trailing HTTP whitespace (tab, LF, CR,
 * space) removed, what `Headers` does to every value it takes. Shared by the server's
 * `HeaderMap` and the runner's `ResponseHeaders`, which both answer as `Headers` would without
 * paying for it. Strings without such whitespace come back as they are, without a regex.
 *
 * @example
 * normalizeHeaderValue(' no-cache\t'); // 'no-cache'
 */
export function normalizeHeaderValue(value: string): string {
  if (value.length === 0) return value;
  const first = value.charCodeAt(0);
  const last = value.charCodeAt(value.length - 1);
  return isHttpWhitespace(first) || isHttpWhitespace(last)
    ? value.replace(/^[\t\n\r ]+|[\t\n\r ]+$/g, '')
    : value;
}

function isHttpWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}
