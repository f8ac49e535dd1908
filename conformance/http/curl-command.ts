import type { RecordedRequest } from '../report.js';

/**
 * A shell command that sends the same request: what a failure report hands to a developer.
 * Single-quoted for POSIX shells; long bodies are kept whole (they are the point).
 *
 * @example
 * curlCommand({ method: 'GET', url: 'http://localhost:3000/api/v1/users/1', headers: {} });
 * // curl -i -X GET 'http://localhost:3000/api/v1/users/1'
 */
export function curlCommand(request: RecordedRequest): string {
  const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const parts = ['curl -i', `-X ${request.method}`, quote(request.url)];
  for (const [name, value] of Object.entries(request.headers))
    parts.push(`-H ${quote(`${name}: ${value}`)}`);
  if (request.body !== undefined) parts.push(`--data-raw ${quote(request.body)}`);
  return parts.join(' ');
}
