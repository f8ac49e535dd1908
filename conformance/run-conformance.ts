import { AuthSession } from './auth-session.js';
import type { ScenarioCheck } from './checks/check.js';
import {
  ConformanceSetupError,
  type ConformanceOptions,
  type ProgressEvent,
} from './conformance-options.js';
import { coverageFacts } from './coverage-facts.js';
import { coverageTotals } from './coverage-totals.js';
import { createRunContext, type RunState } from './create-run-context.js';
import {
  DEFAULT_CONCURRENCY,
  TargetClient,
  TargetUnreachableError,
  WaitInterruptedError,
} from './http/target-client.js';
import type { CheckResult, ConformanceReport } from './report.js';
import { ResultCollector } from './result-collector.js';
import { createRedactor, createRunClient, nameTokens, type Pacing } from './run-client.js';
import type { RunContext } from './run-context.js';
import { planRun, type RunPlan } from './run-plan.js';
import { probeBaseUrl } from './setup/probe-base-url.js';
import { probeToken } from './setup/probe-token.js';
import { OperationUnavailableError } from './run-scope.js';
import { OPERATION_IMPLEMENTED } from './checks/probe/operation-implemented.js';
import { implementedSummary, operationScorecard } from './operation-scorecard.js';
import { contractRulesOf } from './rules/rules-of-check.js';
import { consumerCoverage } from './interactions/consumer-coverage.js';
import {
  CONSUMER_INTERACTIONS,
  type ConsumerInteractionsCheck,
} from './interactions/consumer-interactions.js';

export {
  ConformanceSetupError,
  type ConformanceOptions,
  type FuzzOptions,
  type ProgressEvent,
} from './conformance-options.js';

/**
 * Holds an implementation to an OpenAPI description: derives requests from the spec, sends
 * them to `baseUrl`, and judges what comes back with the selected checks. Resolves with the
 * report whatever the verdict; rejects with ConformanceSetupError only when it cannot run.
 *
 * @example
 * const report = await runConformance({ baseUrl: 'http://127.0.0.1:3000/api/v1', username, password });
 * process.exitCode = report.summary.results.failed ? 1 : 0;
 */
export async function runConformance(options: ConformanceOptions): Promise<ConformanceReport> {
  const started = Date.now();
  const seed = options.seed ?? Math.floor(Math.random() * 2 ** 31);
  const plan = await planRun(options);
  const redactor = createRedactor(options);
  // No check's request reaches an operation out of scope (decision 0096).
  const { client, pacing } = createRunClient(options, redactor, (request) =>
    plan.scope.guard(request),
  );
  const state: RunState = { stop: false };
  const abort = () => {
    state.stop = true;
    state.incomplete ??= `interrupted (${String(options.signal?.reason ?? 'aborted')})`;
    // A check waiting for a rate-limit window gives up now rather than after the window.
    client.interruptWaits();
  };
  if (options.signal?.aborted) abort();
  options.signal?.addEventListener('abort', abort, { once: true });
  const collector = new ResultCollector(
    redactor,
    (result) => {
      if (options.bail && result.status === 'failed') state.stop = true;
      options.onProgress?.({ kind: 'result', result, requests: client.count });
    },
    plan.scope,
  );
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);
  const ctx = createRunContext({
    plan,
    client,
    collector,
    credentials: options,
    seed,
    maxExamples: options.maxExamples ?? 10,
    allowDestructive: options.allowDestructive === true,
    provokeRateLimits: options.provokeRateLimits === true,
    concurrency,
    state,
    onToken: nameTokens(redactor, options),
  });

  await connect(client, ctx.auth, plan, options.token).catch((error: unknown) => {
    options.signal?.removeEventListener('abort', abort);
    throw error;
  });
  // A verify-only replay (decision 0113) calls what the recording calls: nothing left out to say.
  if (!plan.checks.every((c) => c.name === CONSUMER_INTERACTIONS))
    recordDestructive(plan, collector);
  options.onProgress?.({
    kind: 'start',
    operations: plan.operations.length,
    checks: plan.checks.map((c) => c.name),
  });
  try {
    await runScenarioChecks(plan, ctx, collector, state, options.onProgress);
    collector.settleMissing();
    collector.finishResponseChecks();
  } finally {
    options.signal?.removeEventListener('abort', abort);
    // The cleanup waits for windows again: deleting what the run made matters more than speed.
    client.resumeWaits();
    options.onProgress?.({ kind: 'cleanup' });
    await ctx.fixtures.cleanup(concurrency).catch(() => undefined);
    await client.close();
  }
  const loginOperationId = ctx.auth.loginOperation?.operationId;
  return summarizeRun({
    options,
    plan,
    seed,
    started,
    client,
    collector,
    state,
    pacing,
    loginOperationId,
  });
}

/**
 * The target answers, the base URL is the API's, the logins work and a given token is taken:
 * otherwise the run cannot start, and says what to change (decision 0098).
 */
async function connect(
  client: TargetClient,
  auth: AuthSession,
  plan: RunPlan,
  token: string | undefined,
): Promise<void> {
  try {
    await client.send({ method: 'GET', path: '', headers: { Accept: 'application/json' } });
    await probeBaseUrl(client, plan.spec, plan.allOperations);
    // Both logins at once: each costs the target a password hash, and neither needs the other.
    await Promise.all(
      (['user', 'admin'] as const)
        .filter((who) => auth.has(who))
        .map((who) => auth.authorization(who)),
    );
    if (token) await probeToken(client, plan.allOperations, token);
  } catch (error) {
    await client.close();
    if (error instanceof TargetUnreachableError)
      throw new ConformanceSetupError(`the target is unreachable: ${error.message}`);
    throw new ConformanceSetupError((error as Error).message);
  }
}

function recordDestructive(plan: RunPlan, collector: ResultCollector): void {
  for (const op of plan.destructive) {
    collector
      .recorder('*')
      .skip(
        op,
        'destructive (x-apikit-destructive): left out so the run cannot destroy data it did not create; pass --allow-destructive to include it',
      );
  }
}

/** The scenario checks one after the other, until the last or until the run stops. */
async function runScenarioChecks(
  plan: RunPlan,
  ctx: RunContext,
  collector: ResultCollector,
  state: RunState,
  onProgress: ((event: ProgressEvent) => void) | undefined,
): Promise<void> {
  const scenarioChecks = plan.checks.filter((c): c is ScenarioCheck => c.kind === 'scenario');
  for (const [index, check] of scenarioChecks.entries()) {
    if (state.stop) break;
    onProgress?.({ kind: 'check', check: check.name, index, total: scenarioChecks.length });
    state.recorder = collector.recorder(check.name);
    try {
      await check.run(ctx, state.recorder);
    } catch (error) {
      if (error instanceof WaitInterruptedError) break;
      if (error instanceof OperationUnavailableError) {
        // A check that needs an operation outside the scope skips, naming it.
        collector.recorder(check.name).skip(undefined, `skipped: it ${error.message}`);
        continue;
      }
      if (error instanceof TargetUnreachableError) {
        // The report of what ran so far is still worth writing: it says it is partial.
        state.incomplete = `the target stopped answering during ${check.name}: ${error.message}`;
        state.stop = true;
        break;
      }
      const message = `the check itself crashed: ${(error as Error).message}`;
      const op = ctx.operations[0];
      if (op) collector.recorder(check.name).fail(op, { message });
      else collector.recorder(check.name).skip(undefined, message);
    }
  }
}

interface FinishedRun {
  options: ConformanceOptions;
  plan: RunPlan;
  seed: number;
  started: number;
  client: TargetClient;
  collector: ResultCollector;
  state: RunState;
  pacing: Pacing;
  loginOperationId: string | undefined;
}

/** The report: the summary, every result, and the coverage of the selected operations. */
function summarizeRun(run: FinishedRun): ConformanceReport {
  const { plan, client, collector, state, pacing } = run;
  const results = collector.results;
  const count = (status: CheckResult['status']) =>
    results.filter((r) => r.status === status).length;
  const failuresByCheck: Record<string, number> = {};
  for (const r of results)
    if (r.status === 'failed') failuresByCheck[r.check] = (failuresByCheck[r.check] ?? 0) + 1;
  const policies = pacing.policies();
  const fuzzed = plan.fuzz?.outcome();
  const curlVariables = collector.curlVariables();
  const probed = results.some((r) => r.check === OPERATION_IMPLEMENTED);
  // Operations the target lacks have no coverage row: the summary names them once.
  const coverage = collector.coverage(
    plan.scope.operations,
    coverageFacts({
      options: run.options,
      plan,
      loginOperationId: run.loginOperationId,
      incomplete: state.incomplete,
      announcedPolicies: policies.length,
    }),
  );
  return {
    summary: {
      target: run.options.baseUrl,
      specTitle: plan.spec.info.title,
      specVersion: plan.spec.info.version,
      seed: run.seed,
      startedAt: new Date(run.started).toISOString(),
      durationMs: Date.now() - run.started,
      requests: client.count,
      checks: plan.checks.map((c) => c.name),
      results: {
        total: results.length,
        passed: count('passed'),
        failed: count('failed'),
        skipped: count('skipped'),
      },
      failuresByCheck,
      ...(state.incomplete ? { incomplete: state.incomplete } : {}),
      ...(policies.length > 0
        ? { pacedMs: Math.round(pacing.pacedMs()), rateLimits: policies }
        : {}),
      ...(fuzzed ? { fuzz: fuzzed.stats } : {}),
      coverage: coverageTotals(
        coverage,
        plan.destructive.map((op) => op.operationId),
      ),
      ...(probed ? { implemented: implementedSummary(plan.scope) } : {}),
      ...(curlVariables.length > 0 ? { curlVariables } : {}),
    },
    results,
    coverage,
    scorecard: operationScorecard(
      results,
      plan.allOperations.filter((op) => plan.scope.includes(op)),
      {
        probed,
        missing: (op) => plan.scope.missingReason(op) !== undefined,
        // Rule ids belong to the bundled contract: another spec's failures name their checks.
        ...(run.options.specPath === undefined ? { rulesOf: contractRulesOf } : {}),
      },
    ),
    ...consumerSection(plan),
  };
}

/** The consumer coverage of a run that replayed recorded interactions (decision 0113). */
function consumerSection(plan: RunPlan): Pick<ConformanceReport, 'consumer'> {
  const replay = plan.checks.find((c) => c.name === CONSUMER_INTERACTIONS) as
    ConsumerInteractionsCheck | undefined;
  if (!replay) return {};
  return {
    consumer: consumerCoverage(replay.file, plan.allOperations, plan.spec.info, replay.verdicts),
  };
}
