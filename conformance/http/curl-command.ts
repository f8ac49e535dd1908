import type { RecordedRequest } from '../report.js';

/** A piece of a value as a curl line shows it: text (secrets hidden) or a shell variable. */
export type ShellPiece = string | { variable: string };

/** What keeps secrets out of a curl line, naming some by shell variables (a SecretRedactor). */
export interface CurlSecrets {
  shellPieces(value: string): ShellPiece[];
}

/**
 * A shell command that sends the same request: what a failure report hands to a developer.
 * Single-quoted for POSIX shells; long bodies are kept whole (they are the point). With
 * `secrets`, `request` is the request as sent: every value goes through them, and a secret they
 * name by a variable is written as `$NAME` inside double quotes, so the line runs once the
 * variable is exported (decision 0098).
 *
 * @example
 * curlCommand({ method: 'GET', url: 'http://localhost:3000/api/v1/users/1', headers: {} });
 * // curl -i -X GET 'http://localhost:3000/api/v1/users/1'
 * curlCommand(sent, redactor);
 * // curl -i -X GET 'http://localhost:3000/api/v1/users/1' -H "Authorization: Bearer $APIKIT_TOKEN"
 */
export function curlCommand(request: RecordedRequest, secrets?: CurlSecrets): string {
  const word = (s: string) => (secrets ? shellWord(secrets.shellPieces(s)) : quote(s));
  const parts = ['curl -i', `-X ${request.method}`, word(request.url)];
  for (const [name, value] of Object.entries(request.headers))
    parts.push(`-H ${word(`${name}: ${value}`)}`);
  if (request.body !== undefined) parts.push(`--data-raw ${word(request.body)}`);
  return parts.join(' ');
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * One shell word of pieces: single-quoted without a variable; with one, double-quoted (`\`,
 * `"`, `$` and backquotes escaped), or, when the text holds a `!` that an interactive bash
 * would expand there, single-quoted pieces joined to `"$NAME"`.
 */
function shellWord(pieces: ShellPiece[]): string {
  if (pieces.every((p) => typeof p === 'string')) return quote(pieces.join(''));
  if (pieces.some((p) => typeof p === 'string' && p.includes('!')))
    return pieces.map((p) => (typeof p === 'string' ? quote(p) : `"$${p.variable}"`)).join('');
  const text = pieces.map((piece, i) => {
    if (typeof piece === 'string') return piece.replace(/[\\"$`]/g, '\\$&');
    const next = pieces[i + 1];
    // `$NAME` would swallow a following letter, digit or underscore into the name.
    return typeof next === 'string' && /^\w/.test(next)
      ? `\${${piece.variable}}`
      : `$${piece.variable}`;
  });
  return `"${text.join('')}"`;
}
