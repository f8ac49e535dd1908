import type { ProxyViolation } from './proxy-tally.js';

/** One line: `GET /api/v1/users/1 -> 200: response.body: must have required property 'email'`. */
export function formatViolation(v: ProxyViolation): string {
  const severity = v.severity === 'Error' ? '' : ` (${v.severity.toLowerCase()})`;
  const status = v.status ? ` -> ${v.status}` : '';
  return `violation${severity}: ${v.method} ${v.path}${status}: ${v.location}: ${v.message}`;
}
