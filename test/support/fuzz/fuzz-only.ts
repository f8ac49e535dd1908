import { createDefaultRegistry } from '../../../conformance/checks/builtin-checks.js';
import { responseChecks } from '../../../conformance/checks/response/response-checks.js';
import type { ConformanceReport } from '../../../conformance/report.js';
import { runConformance, type ConformanceOptions } from '../../../conformance/run-conformance.js';
import { createFuzzChecks, FUZZ_CHECK_NAMES } from '../../../conformance/fuzz/fuzz-checks.js';
import type { FuzzOutcome } from '../../../conformance/fuzz/run-fuzz.js';

/** A fuzz-only run (`apikit conform --fuzz N --fuzz-only`), as the tests start it. */
export async function fuzzOnly(
  options: Omit<ConformanceOptions, 'registry' | 'checks'> & { perOperation: number },
): Promise<{ report: ConformanceReport; outcome: FuzzOutcome }> {
  const { perOperation, ...rest } = options;
  const fuzz = createFuzzChecks({ perOperation, concurrency: 8 });
  const report = await runConformance({
    ...rest,
    registry: createDefaultRegistry().register(...fuzz.checks),
    checks: [...responseChecks.map((c) => c.name), ...FUZZ_CHECK_NAMES],
  });
  const outcome = fuzz.outcome();
  if (!outcome) throw new Error('the fuzz phase did not run');
  return { report, outcome };
}

/** `check operationId: message` of every failure, for readable test diffs. */
export function failuresOf(report: ConformanceReport): string[] {
  return report.results
    .filter((r) => r.status === 'failed')
    .map((r) => `${r.check} ${r.operationId}: ${r.message.slice(0, 300)}`);
}
