import type { ConformanceSummary } from '../report.js';

/**
 * The one line a report shows above its curl lines: the shell variables they use for the
 * run's access tokens, and what to export in each (decision 0098); undefined when none is used.
 *
 * @example
 * curlVariablesLine(report.summary);
 * // 'curl lines use $APIKIT_TOKEN: export APIKIT_TOKEN=<an access token of user@example.com>'
 */
export function curlVariablesLine(summary: ConformanceSummary): string | undefined {
  const variables = summary.curlVariables ?? [];
  if (variables.length === 0) return undefined;
  const names = variables.map((v) => `$${v.name}`).join(' and ');
  const exports = variables.map((v) => `${v.name}=<${v.holds}>`).join(' ');
  return `curl lines use ${names}: export ${exports}`;
}
