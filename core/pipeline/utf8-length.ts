/**
 * The UTF-8 byte length of a string without encoding it (Content-Length of every answer; an
 * encode would allocate a copy of the body only to measure it). A lone surrogate counts as
 * the 3 bytes of U+FFFD, which is what TextEncoder and Node write in its place.
 *
 * @example
 * utf8Length('né'); // 3
 */
export function utf8Length(text: string): number {
  return byteLength === undefined ? countUtf8Bytes(text) : byteLength(text, 'utf8');
}

/** Node's native count where there is one (the server, the mocks under Node); not in browsers. */
const byteLength = (
  globalThis as { Buffer?: { byteLength(text: string, encoding: 'utf8'): number } }
).Buffer?.byteLength;

/** The count in plain JavaScript, for runtimes without Buffer. */
export function countUtf8Bytes(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) {
      bytes += 1;
      continue;
    }
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 2; // 4 bytes for the pair's 2 code units
        i++;
        continue;
      }
    }
    bytes += 2; // 3 bytes: the rest of the BMP, and a lone surrogate as U+FFFD
  }
  return bytes;
}
