/** Media ranges that admit a JSON answer (problem+json included). */
const JSON_RANGES = new Set([
  '*/*',
  'application/*',
  'application/json',
  'application/problem+json',
]);

/**
 * Whether an Accept header admits a JSON answer. No header admits anything; a range with
 * `q=0` is a refusal, not an offer.
 *
 * @example
 * acceptsJson('text/html, application/json;q=0.5'); // true
 * acceptsJson('text/html');                          // false
 */
export function acceptsJson(accept: string | null): boolean {
  if (accept === null || accept.trim() === '') return true;
  return accept.split(',').some((range) => {
    const [type, ...params] = range.split(';').map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    if (q && Number(q.slice(2)) === 0) return false;
    return JSON_RANGES.has(type ?? '');
  });
}
