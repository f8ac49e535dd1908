import type { OpenApiDocument } from '../spec/load-spec.js';
import { listOperations } from '../spec/operations.js';

/** One thing Prism found wrong with an exchange that passed through the proxy. */
export interface ProxyViolation {
  method: string;
  /** The path the client asked for (with the API base), without the query. */
  path: string;
  /** The operation it matched: its operationId, else `METHOD /template`; undefined if none. */
  operation?: string;
  /** The status the client got (0 when unknown). */
  status: number;
  /** `request` or `response`, then where: `response.body`, `request.header`, ... */
  location: string;
  /** Prism's severity: Error, Warning, Information or Hint. */
  severity: string;
  message: string;
}

/** What one exchange through the proxy came to. */
export interface ProxyExchange {
  method: string;
  path: string;
  status: number;
  /** What Prism reported, before `judgeExchange` sorts it. */
  reported: Omit<ProxyViolation, 'method' | 'path' | 'status' | 'operation'>[];
}

/** An exchange as the client saw it: what was asked, and the status answered. */
export interface ProxyAnswer {
  method: string;
  path: string;
  /** The operation it matched: its operationId; absent when none did. */
  operation?: string;
  status: number;
}

/** The sorted findings of one exchange. */
export interface ExchangeVerdict {
  /** Breaks of the contract: a wrong answer, or a bad request the target accepted. */
  violations: ProxyViolation[];
  /**
   * Bad requests the target (or Prism, with `--errors`) refused with a 4xx: the exchange is
   * what the contract says (a request without a token answered 401, say), not a violation.
   */
  rejected: ProxyViolation[];
}

/** Counts of one operation (or of requests that matched none). */
export interface OperationTally {
  requests: number;
  violations: number;
  warnings: number;
  rejected: number;
}

/** The proxy's account of a session: what a CI job reads at the end. */
export interface ProxySummary {
  startedAt: string;
  durationMs: number;
  /** Every request through the proxy, API or not. */
  requests: number;
  /** API requests held to the contract. */
  validated: number;
  /** Findings of severity Error: any makes `apikit proxy` exit 1. */
  violations: number;
  /** Findings of lower severity (Prism's Warning, Information, Hint): listed, not failing. */
  warnings: number;
  /** Bad requests answered with a 4xx as the contract says (not violations). */
  rejected: number;
  /** Validated exchanges answered 2xx or 3xx: none means the traffic proved little (0099). */
  succeeded: number;
  /** Validated exchanges answered 5xx, documented or not (listed in the report, 0099). */
  serverErrors: number;
  /** Validated exchanges by the status answered, e.g. `{ "200": 3, "401": 9 }`. */
  statuses: Record<string, number>;
  /** Keyed by operationId (`METHOD /path` when the request matched no operation). */
  byOperation: Record<string, OperationTally>;
}

/** What the proxy keeps for the JSON report (the first 10,000 of each kind). */
export interface ProxyFindings {
  violations: ProxyViolation[];
  rejected: ProxyViolation[];
  /** Every exchange answered 5xx. */
  serverErrors: ProxyAnswer[];
}

/** Findings kept in full for the report; the counts stay exact past it. */
const KEPT_FINDINGS = 10_000;

/**
 * Sorts what Prism reported about one exchange. Response findings are always violations. A
 * request finding is a violation when the target accepted the request anyway (2xx, 3xx) or
 * failed on it (5xx); when it was refused with a 4xx, the refusal is the contract's own answer
 * (a documented 401 of a secured operation for a missing token, a 400 for a bad body; an
 * undocumented status would be a response finding of its own), so it is counted as rejected.
 */
export function judgeExchange(
  exchange: ProxyExchange,
  operation: string | undefined,
): ExchangeVerdict {
  const verdict: ExchangeVerdict = { violations: [], rejected: [] };
  const refused = exchange.status >= 400 && exchange.status < 500;
  for (const found of exchange.reported) {
    const finding: ProxyViolation = {
      method: exchange.method,
      path: exchange.path,
      ...(operation ? { operation } : {}),
      status: exchange.status,
      ...found,
    };
    if (refused && finding.location.startsWith('request')) verdict.rejected.push(finding);
    else verdict.violations.push(finding);
  }
  return verdict;
}

/** Finds the operation of `METHOD /api-relative/path` in a description. */
export function operationMatcher(
  doc: OpenApiDocument,
): (method: string, relativePath: string) => string | undefined {
  const routes = listOperations(doc).map((op) => ({
    method: op.method.toUpperCase(),
    id: op.operationId,
    // A template segment `{x}` stands for one non-empty segment; literal segments win.
    pattern: new RegExp(
      '^' +
        op.path
          .split('/')
          .map((s) => (/^\{[^}]+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('/') +
        '/?$',
    ),
    literal: !op.path.includes('{'),
  }));
  routes.sort((a, b) => Number(b.literal) - Number(a.literal));
  return (method, relativePath) =>
    routes.find((r) => r.method === method.toUpperCase() && r.pattern.test(relativePath))?.id;
}

/**
 * Counts exchanges and keeps findings for the summary and the JSON report.
 *
 * @example
 * const tally = createProxyTally();
 * tally.request();
 * tally.record('getUser', judgeExchange(exchange, 'getUser'), exchange);
 * tally.summary().violations;
 */
export function createProxyTally(now: () => number = Date.now) {
  const started = now();
  let requests = 0;
  let validated = 0;
  const totals = { violations: 0, warnings: 0, rejected: 0, succeeded: 0, serverErrors: 0 };
  const statuses = new Map<number, number>();
  const byOperation = new Map<string, OperationTally>();
  const findings: ProxyFindings = { violations: [], rejected: [], serverErrors: [] };
  return {
    /** A request arrived (API or not). */
    request(): void {
      requests++;
    },
    /** An API exchange was validated: its operation (or `METHOD path`), verdict and answer. */
    record(key: string, verdict: ExchangeVerdict, answer: ProxyAnswer): void {
      validated++;
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status >= 200 && answer.status < 400) totals.succeeded++;
      if (answer.status >= 500) {
        totals.serverErrors++;
        if (findings.serverErrors.length < KEPT_FINDINGS) {
          const { method, path, operation, status } = answer;
          findings.serverErrors.push({ method, path, ...(operation ? { operation } : {}), status });
        }
      }
      let tally = byOperation.get(key);
      if (!tally)
        byOperation.set(key, (tally = { requests: 0, violations: 0, warnings: 0, rejected: 0 }));
      tally.requests++;
      for (const v of verdict.violations) {
        const field = v.severity === 'Error' ? 'violations' : 'warnings';
        tally[field]++;
        totals[field]++;
        if (findings.violations.length < KEPT_FINDINGS) findings.violations.push(v);
      }
      tally.rejected += verdict.rejected.length;
      totals.rejected += verdict.rejected.length;
      for (const r of verdict.rejected)
        if (findings.rejected.length < KEPT_FINDINGS) findings.rejected.push(r);
    },
    summary(): ProxySummary {
      return {
        startedAt: new Date(started).toISOString(),
        durationMs: now() - started,
        requests,
        validated,
        ...totals,
        statuses: Object.fromEntries([...statuses].sort(([a], [b]) => a - b)),
        byOperation: Object.fromEntries([...byOperation].sort(([a], [b]) => a.localeCompare(b))),
      };
    },
    /** The findings kept (the first 10,000 of each kind). */
    findings(): ProxyFindings {
      return {
        violations: [...findings.violations],
        rejected: [...findings.rejected],
        serverErrors: [...findings.serverErrors],
      };
    },
  };
}

export type ProxyTally = ReturnType<typeof createProxyTally>;

/** 5xx answers listed one per line in the console summary; the JSON report has them all. */
const LISTED_SERVER_ERRORS = 20;

/**
 * The console summary: one line of totals, then one per operation with findings, then one per
 * 5xx answer (decision 0099).
 */
export function formatSummary(summary: ProxySummary, serverErrors: ProxyAnswer[] = []): string {
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const lines = [
    `apikit proxy: ${plural(summary.requests, 'request')} (${summary.validated} validated), ` +
      `${plural(summary.violations, 'violation')}, ${plural(summary.warnings, 'warning')}, ` +
      `${summary.rejected} rejected as documented, in ${(summary.durationMs / 1000).toFixed(1)} s`,
  ];
  for (const [operation, t] of Object.entries(summary.byOperation)) {
    if (t.violations + t.warnings === 0) continue;
    const parts = [plural(t.violations, 'violation')];
    if (t.warnings) parts.push(plural(t.warnings, 'warning'));
    lines.push(`  ${operation}: ${parts.join(', ')} in ${plural(t.requests, 'request')}`);
  }
  for (const e of serverErrors.slice(0, LISTED_SERVER_ERRORS))
    lines.push(
      `  5xx: ${e.method} ${e.path} -> ${e.status}${e.operation ? ` (${e.operation})` : ''}`,
    );
  if (summary.serverErrors > LISTED_SERVER_ERRORS)
    lines.push(`  5xx: ${summary.serverErrors - LISTED_SERVER_ERRORS} more in the JSON report`);
  return lines.join('\n');
}
