/**
 * The name of the header an injection attempt tries to smuggle into a response. A response
 * that carries it was split by a value the fuzzer sent: header injection, whatever the status.
 */
export const INJECTED_HEADER = 'X-Apikit-Fuzz';

/** A fuzz string and what it is, in words. */
export interface NamedString {
  text: string;
  what: string;
}

/**
 * Unicode edge cases: text that is valid JSON but often mishandled (lone surrogates, which no
 * UTF-8 can carry; bidirectional overrides; NUL and other controls; combining marks; astral
 * characters counted as two UTF-16 units; non-characters; separators some parsers treat as
 * line ends).
 */
export const UNICODE_EDGES: readonly NamedString[] = [
  { text: '\ud800', what: 'a lone high surrogate' },
  { text: 'x\udc00', what: 'a lone low surrogate' },
  { text: '\udc00\ud800', what: 'surrogates in the wrong order' },
  { text: 'abc\u202edcba', what: 'a right-to-left override' },
  { text: 'שלום مرحبا', what: 'right-to-left scripts' },
  { text: '\u200f\u200e\u2067x\u2069', what: 'bidi marks and isolates' },
  { text: 'a\u0000b', what: 'an embedded NUL' },
  { text: '\u0000', what: 'a lone NUL' },
  { text: '\ufeffname', what: 'a leading byte order mark' },
  { text: '👩‍👩‍👧‍👦', what: 'a ZWJ emoji sequence' },
  { text: '𝕳𝖊𝖑𝖑𝖔', what: 'astral letters (two UTF-16 units each)' },
  { text: 'Z\u0338\u0321\u0322a\u0335l\u0336g\u0337o', what: 'stacked combining marks' },
  { text: 'e\u0301', what: 'a decomposed é (NFD)' },
  { text: '\ufffe\uffff', what: 'non-characters' },
  { text: 'a\u2028b\u2029c', what: 'line and paragraph separators' },
  { text: 'a\u0085b', what: 'a C1 next-line control' },
  { text: '\t\n\r\u000b\u000c', what: 'ASCII whitespace controls' },
  { text: '\u007f\u0001\u001f', what: 'DEL and C0 controls' },
  { text: '\u200b\u200c\u200d\u2060', what: 'zero-width characters' },
  { text: 'ＡＢＣ１２３', what: 'fullwidth forms' },
  { text: 'İıſK', what: 'letters whose case mapping changes length or script' },
  { text: '\ue000\udb80\udc00', what: 'private-use characters' },
  { text: '%00%ff%', what: 'percent signs that look like escapes' },
];

/**
 * Attempts to split a header or smuggle a parameter into one (Location, Link, X-Request-Id):
 * raw CR/LF in its spellings, percent-encoded CR/LF (decoded by a careless server), Unicode
 * line ends that some libraries fold into ASCII ones, and Link syntax breakers.
 */
export const HEADER_INJECTIONS: readonly NamedString[] = [
  { text: `x\r\n${INJECTED_HEADER}: crlf`, what: 'a CRLF line break' },
  { text: `x\n${INJECTED_HEADER}: lf`, what: 'a bare LF' },
  { text: `x\r${INJECTED_HEADER}: cr`, what: 'a bare CR' },
  { text: `x\r\n\r\n<html>body</html>`, what: 'CRLF CRLF and a body (response splitting)' },
  { text: `x%0d%0a${INJECTED_HEADER}:%20encoded`, what: 'percent-encoded CRLF' },
  { text: `x%0D%0A${INJECTED_HEADER}: ENCODED`, what: 'upper-case percent-encoded CRLF' },
  { text: `x%250d%250a${INJECTED_HEADER}: double`, what: 'double percent-encoded CRLF' },
  { text: `x\u2028${INJECTED_HEADER}: ls`, what: 'a Unicode line separator' },
  { text: `x\u0085${INJECTED_HEADER}: nel`, what: 'a Unicode next-line' },
  { text: `x\u560d\u560a${INJECTED_HEADER}: cjk`, what: 'characters whose low bytes are CR LF' },
  { text: '>; rel="next", <https://evil.example/', what: 'a Link target breaker' },
  { text: '"; rel="evil', what: 'a Link parameter breaker' },
  { text: '//evil.example/x', what: 'a protocol-relative URL' },
  { text: 'https://evil.example/', what: 'an absolute URL to another origin' },
  { text: '\u0000x', what: 'a NUL' },
];

/** Keys that reach `Object.prototype` when a server merges objects carelessly. */
export const PROTOTYPE_KEYS: readonly string[] = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__defineGetter__',
];

/** Numbers as JSON text that no double carries exactly, or carries as Infinity or -0. */
export const GIANT_NUMBERS: readonly NamedString[] = [
  { text: '9007199254740993', what: '2^53 + 1 (not exact in a double)' },
  { text: '-9007199254740993', what: '-(2^53 + 1)' },
  { text: '18446744073709551616', what: '2^64' },
  { text: '123456789012345678901234567890123456789', what: 'a 39-digit integer' },
  { text: '1' + '0'.repeat(400), what: 'a 401-digit integer' },
  { text: '1e309', what: '1e309 (Infinity as a double)' },
  { text: '-1e309', what: '-1e309 (-Infinity as a double)' },
  { text: '1E400', what: '1E400' },
  { text: '1e-400', what: '1e-400 (underflows to 0)' },
  { text: '-0', what: 'negative zero' },
  { text: '2147483648', what: '2^31 (one past int32)' },
  { text: '-2147483649', what: 'one below int32' },
  { text: '4294967296', what: '2^32' },
  { text: '0.1e1', what: '1 written as 0.1e1' },
  { text: '1.0', what: 'an integer with a fraction part' },
  { text: '0.' + '0'.repeat(300) + '1', what: 'a tiny decimal with 300 zeros' },
];

/**
 * Only what a request header can carry: undici (like every HTTP client) refuses CR, LF and
 * NUL in a value, so those are sent percent-encoded; the rest of the text goes as visible ASCII.
 */
export function headerSafe(text: string): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0) as number;
    out += code >= 0x20 && code <= 0x7e ? ch : encodeUtf16(ch);
  }
  return out.trim() || '%20';
}

/**
 * Percent-encodes text for a URL like encodeURIComponent, but never throws: a lone surrogate
 * becomes the bytes WTF-8 gives it (`\ud800` -> `%ED%A0%80`), which is not valid UTF-8 and so
 * is itself a good test of the target's decoding.
 */
export function encodeComponent(text: string): string {
  // The native encoder (same unreserved set) is much faster; it throws only on lone surrogates.
  try {
    return encodeURIComponent(text);
  } catch {
    // fall through to the byte-by-byte encoding below
  }
  let out = '';
  for (const ch of text) {
    if (/^[A-Za-z0-9\-_.!~*'()]$/.test(ch)) out += ch;
    else out += encodeUtf16(ch);
  }
  return out;
}

/** Percent-encoded UTF-8 of one code point (WTF-8 for a lone surrogate). */
function encodeUtf16(ch: string): string {
  const code = ch.codePointAt(0) as number;
  const bytes: number[] = [];
  if (code < 0x80) bytes.push(code);
  else if (code < 0x800) bytes.push(0xc0 | (code >> 6), 0x80 | (code & 63));
  else if (code < 0x10000)
    bytes.push(0xe0 | (code >> 12), 0x80 | ((code >> 6) & 63), 0x80 | (code & 63));
  else
    bytes.push(
      0xf0 | (code >> 18),
      0x80 | ((code >> 12) & 63),
      0x80 | ((code >> 6) & 63),
      0x80 | (code & 63),
    );
  return bytes.map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
}
