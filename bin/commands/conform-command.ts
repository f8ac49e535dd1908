import { writeFile } from 'node:fs/promises';
import type { CommandModule } from 'yargs';
import {
  applyBaseline,
  CONSUMER_INTERACTIONS,
  ConformanceSetupError,
  createConsoleProgress,
  createDefaultRegistry,
  listChecks,
  planReportOutputs,
  renderConsoleSummary,
  renderFuzzSummary,
  ReportOutputError,
  runConformance,
  waitForTarget,
  type Check,
  type ConformanceOptions,
  type ConformanceReport,
} from '../../conformance/index.js';
import { CliError } from '../cli-error.js';
import { watchStopRequests } from '../stop-requests.js';
import { credentials } from './conform-credentials.js';
import { readBaselineFile, writeBaselineFile } from './conform-baseline.js';
import { conformOptions, parseHeaders, type ConformArgs } from './conform-options.js';
import { existingFile, prepareOutputs } from './conform-outputs.js';
import { readInteractionsFile } from './conform-interactions.js';

type ReportPlan = ReturnType<typeof planReportOutputs>;

/**
 * `apikit conform <baseUrl>`: holds a running implementation to the contract and reports
 * what it found. Exit 0 when no check failed, 1 when one did (with --baseline: one not in the
 * file), 2 when the run could not start.
 */
export const conformCommand: CommandModule<object, ConformArgs> = {
  command: 'conform [baseUrl]',
  describe: 'Check a running implementation against the contract (exit 0 conforms, 1 not)',
  builder: (y) => conformOptions(y),
  handler: async (args) => {
    if (args['list-checks']) {
      process.stdout.write(renderCheckList(listChecks(createDefaultRegistry())));
      return;
    }
    // Every option and output place is checked before the first request: a CI job learns of
    // a typo in a second, not after the whole run.
    const options = runOptions(args);
    const plan = await planOutputs(args);
    const baseline = args.baseline
      ? await readBaselineFile(args.baseline, args['update-baseline'])
      : undefined;
    if (args.spec) options.specPath = await specPath(args.spec);
    if (args.interactions) options.interactions = await readInteractionsFile(args.interactions);
    if (args['wait-for-target'] !== undefined) await waitFor(args, options.headers ?? {});
    let waited429 = 0;
    const progress = createConsoleProgress(process.stderr);
    options.onProgress = (event) => {
      if (event.kind === 'wait') waited429++;
      progress(event);
    };
    const interrupt = onInterrupt();
    options.signal = interrupt.signal;
    const fuzzing =
      args.fuzz > 0 ? ` --fuzz ${args.fuzz}${args['fuzz-only'] ? ' --fuzz-only' : ''}` : '';
    process.stderr.write(
      `conform: ${options.baseUrl} · seed ${options.seed} (repeat with --seed ${options.seed}${fuzzing})\n`,
    );
    let report: ConformanceReport;
    try {
      report = await runConformance(options);
    } catch (error) {
      if (error instanceof ConformanceSetupError) throw new CliError(error.message);
      throw error;
    } finally {
      interrupt.done();
    }
    // The reports judge the run by the baseline as it was: what is new, what got fixed.
    if (baseline) report = applyBaseline(report, baseline.baseline);
    await writeReports(report, plan);
    if (baseline?.update) await writeBaselineFile(baseline, report);
    process.exitCode = exitCode(report, waited429, interrupt.signal, baseline?.update);
  },
};

/** The reports' places, checked and prepared (directories made) before the run. */
async function planOutputs(args: ConformArgs): Promise<ReportPlan> {
  let plan;
  try {
    plan = planReportOutputs(args.reporter, args.output);
  } catch (error) {
    if (error instanceof ReportOutputError) throw new CliError(error.message);
    throw error;
  }
  await prepareOutputs(plan.outputs, plan.directory, args.output);
  return plan;
}

/** A --spec URL as given, a file as its absolute path once it is known to exist. */
async function specPath(spec: string): Promise<string> {
  return /^https?:\/\//i.test(spec) ? spec : existingFile(spec);
}

/** The run's options from the command line and the environment (--spec aside). */
function runOptions(args: ConformArgs): ConformanceOptions {
  const headers = parseHeaders(args.header);
  const auth = credentials(args, process.env);
  return {
    baseUrl: args.baseUrl as string,
    ...(Object.keys(headers).length ? { headers } : {}),
    ...auth,
    ...(args.checks?.length ? { checks: args.checks } : {}),
    ...(args['exclude-checks']?.length ? { excludeChecks: args['exclude-checks'] } : {}),
    ...(args.include?.length ? { include: args.include } : {}),
    ...(args.exclude?.length ? { exclude: args.exclude } : {}),
    seed: args.seed ?? Math.floor(Math.random() * 2 ** 31),
    maxExamples: args['max-examples'],
    concurrency: args.concurrency,
    timeoutMs: args.timeout,
    ...(args['rate-limit'] ? { rateLimit: args['rate-limit'] } : {}),
    bail: args.bail,
    allowDestructive: args['allow-destructive'],
    provokeRateLimits: args['provoke-rate-limits'],
    ...(args.fuzz > 0
      ? {
          fuzz: {
            perOperation: args.fuzz,
            concurrency: args['fuzz-concurrency'],
            timeoutMs: args.timeout,
            only: args['fuzz-only'],
          },
        }
      : {}),
  };
}

async function waitFor(args: ConformArgs, headers: Record<string, string>): Promise<void> {
  await waitForTarget(args.baseUrl as string, {
    timeoutMs: (args['wait-for-target'] as number) * 1000,
    headers,
    onWaiting: (line) => process.stderr.write(`conform: ${line}\n`),
  }).catch((error: Error) => {
    throw new CliError(error.message);
  });
}

/**
 * SIGINT/SIGTERM (or the npx above gone, decision 0099) stop the run after the requests in
 * flight; what ran is still reported (marked partial), and cleanup deletes what the run
 * created. A second signal quits.
 */
function onInterrupt(): { signal: AbortSignal; done(): void } {
  const interrupt = new AbortController();
  const done = watchStopRequests(({ signal, reason }) => {
    if (interrupt.signal.aborted) process.exit(signal === 'SIGINT' ? 130 : 143);
    process.stderr.write(
      `\nconform: ${reason}: stopping after the requests in flight, cleaning up and writing the reports (again to quit now)\n`,
    );
    interrupt.abort(signal);
  });
  return { signal: interrupt.signal, done };
}

/** The console summary (the fuzz phase's numbers after it), then each report document. */
async function writeReports(report: ConformanceReport, plan: ReportPlan): Promise<void> {
  const fuzzed = report.summary.fuzz;
  if (plan.console) {
    const color = Boolean(process.stdout.isTTY) && !process.env.NO_COLOR;
    process.stdout.write(renderConsoleSummary(report, { color }));
    if (fuzzed) process.stdout.write(renderFuzzSummary(fuzzed));
  } else if (fuzzed) process.stderr.write(renderFuzzSummary(fuzzed));
  for (const output of plan.outputs) {
    const text = output.render(report);
    if (output.path === undefined) {
      process.stdout.write(text);
      continue;
    }
    await writeFile(output.path, text).catch((error: NodeJS.ErrnoException) => {
      throw new CliError(`cannot write ${output.path}: ${error.code ?? error.message}`);
    });
    process.stderr.write(`conform: wrote ${output.path}\n`);
  }
}

/**
 * 0 conforms, 1 a check failed (with a baseline: a failure not in it; 0 once
 * --update-baseline has accepted them); a partial run 130/143 (interrupted) or 2; pacing
 * explained.
 */
function exitCode(
  report: ConformanceReport,
  waited429: number,
  signal: AbortSignal,
  updatedBaseline = false,
): number {
  const { pacedMs, rateLimits, incomplete } = report.summary;
  if (pacedMs)
    process.stderr.write(
      `conform: ${Math.round(pacedMs / 1000)} s of the run's ${Math.round(report.summary.durationMs / 1000)} s were spent waiting for the target's rate-limit windows (${rateLimits?.map((p) => `${p.policy || 'limit'} ${p.quota ?? '?'}/${p.windowSeconds ?? 60} s`).join(', ')}); ${waited429 ? `${waited429} 429 answer(s) were waited out all the same (another client sharing the budget?)` : 'no 429 had to be waited out'}\n`,
    );
  if (incomplete) {
    process.stderr.write(
      `conform: the run did not finish: ${incomplete}; the reports are partial\n`,
    );
    const reason = signal.reason as string | undefined;
    return reason === 'SIGINT' ? 130 : reason === 'SIGTERM' ? 143 : 2;
  }
  if (updatedBaseline) return 0;
  return (report.summary.baseline?.new ?? report.summary.results.failed) > 0 ? 1 : 0;
}

/**
 * The checks `--checks` can name, then `consumer_interactions`: it is no entry of the registry
 * (it is made from a recording), so it runs with `--interactions FILE`, not by its name.
 */
function renderCheckList(checks: Check[]): string {
  const rows = [
    ...checks.map((c) => [c.name, c.description] as const),
    [
      CONSUMER_INTERACTIONS,
      "Replays a frontend's recorded interactions (decision 0113); each answer keeps the status, headers and fields the frontend saw. Runs with --interactions FILE, not by name in --checks",
    ] as const,
  ];
  const width = Math.max(...rows.map(([name]) => name.length));
  return rows.map(([name, description]) => `${name.padEnd(width)}  ${description}\n`).join('');
}
