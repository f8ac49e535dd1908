import type { ProxySummary } from './proxy-tally.js';

/** Which of the session's warnings fail the run (`apikit proxy --fail-on-*`). */
export interface ProxyOutcomeOptions {
  /** Exit 1 when no validated exchange was answered 2xx or 3xx. */
  failOnNoSuccess?: boolean;
  /** Exit 1 when any validated exchange was answered 5xx, documented or not. */
  failOn5xx?: boolean;
}

/** What a session came to beyond its violations. */
export interface ProxyOutcome {
  /** Warnings about the traffic as a whole, one line each (printed, and in the report). */
  notes: string[];
  /** The flags that turned a note into a failure (exit 1), e.g. `--fail-on-5xx`. */
  failedBy: string[];
}

/**
 * Judges a session as a whole: traffic that never succeeded proves nothing about the answers a
 * client lives on (every answer a 401 after a failed login passes with 0 violations), and a 5xx
 * is the server failing even where the contract documents it. Both are warned about always,
 * and fail the run only when asked (decision 0099).
 *
 * @example
 * judgeSession(summary, { failOnNoSuccess: true });
 * // { notes: ['nothing was validated: all 9 answers were 401 (...)'], failedBy: ['--fail-on-no-success'] }
 */
export function judgeSession(summary: ProxySummary, options: ProxyOutcomeOptions): ProxyOutcome {
  const outcome: ProxyOutcome = { notes: [], failedBy: [] };
  if (summary.succeeded === 0) {
    outcome.notes.push(`nothing was validated: ${noSuccess(summary)}`);
    if (options.failOnNoSuccess) outcome.failedBy.push('--fail-on-no-success');
  }
  if (summary.serverErrors > 0) {
    const n = summary.serverErrors;
    const list = statusList(summary.statuses, (status) => status >= 500);
    outcome.notes.push(
      `${n === 1 ? '1 answer was a server error' : `${n} answers were server errors`} (${list}), documented or not`,
    );
    if (options.failOn5xx) outcome.failedBy.push('--fail-on-5xx');
  }
  return outcome;
}

/** Why nothing succeeded, in words: no API traffic, or every answer's status. */
function noSuccess(summary: ProxySummary): string {
  if (summary.validated === 0) return 'no API request came through the proxy';
  const statuses = Object.keys(summary.statuses);
  const all =
    summary.validated === 1 ? 'the only answer was' : `all ${summary.validated} answers were`;
  const list = statusList(summary.statuses, () => true);
  const hint = statuses.length === 1 && statuses[0] === '401' ? ': did a login fail?' : '';
  return `${all} ${list} (no 2xx or 3xx${hint})`;
}

/** `401`, or `401 x7, 404 x2` when several statuses were answered. */
function statusList(statuses: Record<string, number>, keep: (status: number) => boolean): string {
  const kept = Object.entries(statuses).filter(([status]) => keep(Number(status)));
  if (kept.length === 1) return kept[0]![0];
  return kept.map(([status, count]) => `${status} x${count}`).join(', ');
}
