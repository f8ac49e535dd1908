import type { CheckResult } from '../report.js';

/** How a result names what it judged: `operationId METHOD path`, or the whole run. */
export function resultName(result: CheckResult): string {
  if (result.operationId === '*') return '(all operations)';
  return `${result.operationId} ${result.method} ${result.path}`;
}

/**
 * Results of one status grouped by check, checks in the order they first appear.
 *
 * @example
 * for (const [check, failures] of groupByCheck(report.results, 'failed')) console.log(check, failures.length);
 */
export function groupByCheck(
  results: CheckResult[],
  status: CheckResult['status'],
): Map<string, CheckResult[]> {
  const groups = new Map<string, CheckResult[]>();
  for (const result of results) {
    if (result.status !== status) continue;
    let group = groups.get(result.check);
    if (!group) groups.set(result.check, (group = []));
    group.push(result);
  }
  return groups;
}

/** One reason a check was skipped, and the results (operations) it was skipped for. */
export interface SkipGroup {
  check: string;
  reason: string;
  results: CheckResult[];
}

/**
 * Skipped results grouped by check and then by reason: a check skipped for the same reason
 * on forty operations is one line, not forty.
 */
export function groupSkips(results: CheckResult[]): SkipGroup[] {
  const groups: SkipGroup[] = [];
  for (const [check, skipped] of groupByCheck(results, 'skipped')) {
    const byReason = new Map<string, CheckResult[]>();
    for (const result of skipped) {
      let list = byReason.get(result.message);
      if (!list) byReason.set(result.message, (list = []));
      list.push(result);
    }
    for (const [reason, list] of byReason) groups.push({ check, reason, results: list });
  }
  return groups;
}
