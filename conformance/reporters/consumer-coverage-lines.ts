import type { ConformanceReport } from '../report.js';
import { visibleControls } from './escape-markup.js';

interface Paint {
  bold(s: string): string;
  dim(s: string): string;
  red(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
}

/**
 * The console's consumer coverage (decision 0113): the recording's totals, then one line per
 * operation it calls with how many parameters, headers and fields its tests rely on.
 */
export function consumerCoverageLines(report: ConformanceReport, c: Paint): string[] {
  const consumer = report.consumer;
  if (!consumer) return [];
  // The recording comes from another team's files: no terminal escapes from it.
  const clean = (s: string) => visibleControls(s);
  const n = consumer.interactions;
  const lines = [
    c.bold(`Consumer ${clean(consumer.consumer)}`) +
      `: ${n.total} interactions from ${consumer.tests} tests over ${consumer.operations.length} operations: ` +
      `${c.green(`${n.passed} passed`)}, ${n.failed ? c.red(`${n.failed} failed`) : '0 failed'}, ` +
      `${n.skipped ? c.yellow(`${n.skipped} skipped`) : '0 skipped'}`,
  ];
  if (!consumer.contract.sameAsRun)
    lines.push(
      c.yellow(
        `  recorded against ${clean(consumer.contract.title)} ${clean(consumer.contract.version)}, not this run's contract`,
      ),
    );
  for (const op of consumer.operations) {
    const count = (...kinds: string[]) => op.uses.filter((u) => kinds.includes(u.in)).length;
    const failing = op.interactions.filter((i) => i.verdict === 'failed').length;
    lines.push(
      `  ${clean(`${op.operationId} ${op.method} ${op.path}`)} · ${op.statuses.join(', ')} · ` +
        c.dim(
          `${count('path', 'query', 'header', 'body')} request parameters/fields, ${count('response-header')} headers and ${count('response-body')} fields read, ${op.tests.length} test(s)`,
        ) +
        (failing ? ` ${c.red(`${failing} failing`)}` : ''),
    );
  }
  lines.push(
    c.dim(
      '  (every field and test: --reporter html, "Consumer coverage"; or the json report\'s "consumer")',
    ),
    '',
  );
  return lines;
}
