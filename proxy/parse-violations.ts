import type { ProxyViolation } from './proxy-tally.js';

/** A finding as Prism reports it, before the exchange it belongs to is added. */
export type ReportedViolation = Omit<ProxyViolation, 'method' | 'path' | 'status'>;

/** Prism's `sl-violations` header: a JSON array, or `Too many violations! <cut JSON>`. */
export function parseViolations(header: string | string[] | undefined): ReportedViolation[] {
  const value = Array.isArray(header) ? header.join(',') : header;
  if (!value) return [];
  try {
    const list = JSON.parse(value) as {
      location?: string[];
      severity?: string;
      message?: string;
    }[];
    return list.map((v) => ({
      location: (v.location ?? []).join('.') || 'request',
      severity: v.severity ?? 'Error',
      message: v.message ?? 'violation',
    }));
  } catch {
    return [
      {
        location: 'exchange',
        severity: 'Error',
        message: `Prism reported violations it could not list in full: ${value.slice(0, 300)}`,
      },
    ];
  }
}
