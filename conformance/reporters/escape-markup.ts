/**
 * Characters XML 1.0 forbids even as character references (C0 controls other than tab, LF and
 * CR; U+FFFE; U+FFFF; lone surrogates), and DEL and the C1 controls, which XML discourages and
 * which (like ESC) would let a target's response steer the terminal showing a report.
 */
const FORBIDDEN =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Replaces characters that must not appear in a report (see FORBIDDEN) with a visible
 * `\uXXXX`, so the report still shows that they were there.
 *
 * @example
 * visibleControls('a\u0007b'); // 'a\\u0007b'
 */
export function visibleControls(text: string): string {
  return text.replace(
    FORBIDDEN,
    (c) => `\\u${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`,
  );
}

/**
 * Escapes text for XML or HTML, in element content or in a double- or single-quoted
 * attribute. With `attribute`, tab, LF and CR become character references, which attribute
 * value normalization would otherwise turn into spaces.
 *
 * @example
 * escapeMarkup('a < "b" & c'); // 'a &lt; &quot;b&quot; &amp; c'
 */
export function escapeMarkup(text: string, options: { attribute?: boolean } = {}): string {
  const escaped = visibleControls(text)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
  return options.attribute
    ? escaped.replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;')
    : escaped;
}
