import type { ProxyViolation } from './proxy-tally.js';

/** A finding as Prism reports it, before the exchange it belongs to is added. */
export type ReportedViolation = Omit<ProxyViolation, 'method' | 'path' | 'status'>;

/** Prism's `sl-violations` header: a JSON array, or `Too many violations! <cut JSON>`. */
export function parseViolations(header: string | string[] | undefined): ReportedViolation[] {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return [];
  const list = parseList(value) ?? parseCutList(value);
  if (!list)
    return [
      {
        location: 'exchange',
        severity: 'Error',
        message: `Prism reported violations it could not list in full: ${value.slice(0, 300)}`,
      },
    ];
  return list.map((v) => ({
    location: (v.location ?? []).join('.') || 'request',
    severity: v.severity ?? 'Error',
    message: v.message ?? 'violation',
  }));
}

interface PrismViolation {
  location?: string[];
  severity?: string;
  message?: string;
}

function parseList(text: string): PrismViolation[] | undefined {
  try {
    const list = JSON.parse(text) as unknown;
    return Array.isArray(list) ? (list as PrismViolation[]) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `Too many violations! [{...},{...},{"loc` (Prism cuts the header's JSON): the entries given
 * whole. A request with a thousand unknown properties (the runner's bounded_errors check) is
 * reported this way, and its entries say where the violations are, so a documented 400 to it
 * counts as refused as documented, not as an exchange nobody can judge.
 */
function parseCutList(text: string): PrismViolation[] | undefined {
  const start = text.indexOf('[');
  if (!text.startsWith('Too many violations!') || start < 0) return undefined;
  for (let end = text.lastIndexOf('}'); end > start; end = text.lastIndexOf('}', end - 1)) {
    const list = parseList(`${text.slice(start, end + 1)}]`);
    if (list && list.length > 0) return list;
  }
  return undefined;
}
