import type { CheckRecorder, ScenarioCheck } from '../checks/check.js';
import { statusTally } from '../checks/support/probe-support.js';
import type { RunContext } from '../run-context.js';
import type { FuzzOracle } from './fuzz-oracles.js';
import { runFuzz, type FuzzOutcome, type FuzzSettings } from './run-fuzz.js';

/** The checks of the fuzz phase, one per oracle, and the phase's outcome once it ran. */
export interface FuzzChecks {
  checks: ScenarioCheck[];
  /** The outcome of the last run that fuzzed (stats for the summary), if any did. */
  outcome(): FuzzOutcome | undefined;
}

const DESCRIPTIONS: Record<FuzzOracle, [string, string]> = {
  no_server_error: [
    'fuzz_no_server_error',
    'Fuzz: no request generated and broken around the schemas (boundaries, wrong types, huge and deep JSON, Unicode edges, prototype keys, giant numbers, header injection) gets a 5xx or no answer',
  ],
  response_conformance: [
    'fuzz_response_conformance',
    'Fuzz: every answer to a fuzzed request is one the spec documents (status, media type, body schema, headers)',
  ],
  read_back: [
    'fuzz_read_back',
    'Fuzz: after each accepted write a GET reads back what it set and answered (a DELETE reads back nothing)',
  ],
  header_injection: [
    'fuzz_header_injection',
    'Fuzz: no fuzzed value splits a response header; Location and Link stay well-formed',
  ],
};

/** The names of the fuzz checks, in the order they run. */
export const FUZZ_CHECK_NAMES = Object.values(DESCRIPTIONS).map(([name]) => name);

/**
 * The fuzz phase as scenario checks (`apikit conform --fuzz N`): the first of them to run
 * fuzzes every selected operation once (`runFuzz`), and each records its oracle's verdict per
 * operation, failures with the case that caused them, a curl line and the seed. Registered
 * after the selected checks, so the fuzz phase comes after the normal run and before cleanup.
 * Internal: `runConformance({ fuzz })` creates them for its run (run-plan.ts) and puts the
 * outcome's stats in `summary.fuzz`; tests read the per-operation verdicts through `outcome()`.
 */
export function createFuzzChecks(settings: FuzzSettings): FuzzChecks {
  const runs = new WeakMap<RunContext, Promise<FuzzOutcome>>();
  let last: FuzzOutcome | undefined;
  const outcomeFor = (ctx: RunContext) => {
    let run = runs.get(ctx);
    if (!run) {
      run = runFuzz(ctx, settings).then((outcome) => (last = outcome));
      runs.set(ctx, run);
    }
    return run;
  };
  const checks = (Object.entries(DESCRIPTIONS) as [FuzzOracle, [string, string]][]).map(
    ([oracle, [name, description]]): ScenarioCheck => ({
      kind: 'scenario',
      name,
      description,
      async run(ctx, record) {
        recordVerdicts(oracle, await outcomeFor(ctx), ctx, record);
      },
    }),
  );
  return { checks, outcome: () => last };
}

/** One oracle's verdicts of the phase as results: skips, failures with their case, passes. */
function recordVerdicts(
  oracle: FuzzOracle,
  outcome: FuzzOutcome,
  ctx: RunContext,
  record: CheckRecorder,
): void {
  const seed = ctx.options.seed;
  for (const { op, reason } of outcome.skipped) record.skip(op, reason);
  for (const verdict of outcome.verdicts) {
    const { op } = verdict;
    const write = ['post', 'put', 'patch', 'delete'].includes(op.method);
    if (oracle === 'read_back' && !write) continue;
    const findings = verdict.findings[oracle];
    const total = verdict.failures[oracle];
    for (const finding of findings) {
      const { testCase } = finding;
      const what = testCase.what.length > 0 ? testCase.what.join('; ') : 'a valid request';
      const more = total > findings.length ? ` (${total} failed answers in all)` : '';
      record.fail(
        op,
        {
          message: `${finding.message}${more}; fuzz case #${testCase.index} of ${op.operationId} (${what}), seed ${seed}`,
          ...(finding.expected !== undefined ? { expected: finding.expected } : {}),
          ...(finding.actual !== undefined ? { actual: finding.actual } : {}),
        },
        finding.exchange,
      );
    }
    if (findings.length > 0) continue;
    const tally = statusTally([...verdict.statuses].flatMap(([s, n]) => Array<number>(n).fill(s)));
    if (verdict.cases === 0) record.skip(op, 'no fuzz case was sent (the run stopped first)');
    else if (oracle === 'read_back' && verdict.accepted === 0)
      record.skip(op, `no fuzzed write was accepted, so there was nothing to read back (${tally})`);
    else if (oracle === 'read_back' && verdict.readBacks === 0)
      record.skip(
        op,
        `${verdict.accepted} accepted write(s), but no GET reads them back (none at the same or the parent path, no link)`,
      );
    else if (oracle === 'read_back')
      record.pass(op, `${verdict.readBacks} accepted write(s) read back as written`);
    else
      record.pass(
        op,
        `${verdict.cases} fuzz case(s) judged (${tally})${verdict.rateLimitedOut ? '; left early: the target kept answering 429' : ''}`,
      );
  }
}
