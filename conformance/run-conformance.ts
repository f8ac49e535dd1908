import { listOperations, type SpecOperation } from '../spec/operations.js';
import { ResponseValidator } from '../spec/response-validator.js';
import { AuthSession, type AuthOptions, type Credential } from './auth-session.js';
import type { ResponseCheck, ScenarioCheck } from './checks/check.js';
import type { CheckRegistry } from './checks/check-registry.js';
import { createDefaultRegistry } from './checks/builtin-checks.js';
import { createCaseGenerator } from './generate/create-case-generator.js';
import { seededRandom } from './generate/seeded-random.js';
import { buildRequest } from './http/build-request.js';
import {
  DEFAULT_CONCURRENCY,
  TargetClient,
  TargetUnreachableError,
  WaitInterruptedError,
} from './http/target-client.js';
import type { CheckResult, ConformanceReport } from './report.js';
import type { PaceEvent, PolicyBudget } from './http/rate-limit-pacer.js';
import { loadRunSpec } from './load-run-spec.js';
import { ResultCollector } from './result-collector.js';
import { SecretRedactor } from './secret-redactor.js';
import type { RunContext } from './run-context.js';
import { selectOperations } from './select-operations.js';
import { Fixtures } from './stateful/fixtures.js';

export interface ConformanceOptions extends AuthOptions {
  /** The implementation's API base, e.g. `http://127.0.0.1:3000/api/v1`. */
  baseUrl: string;
  /** The description to hold it to: a file or an http(s) URL (default: the bundled contract). */
  specPath?: string;
  /**
   * Headers sent on every request (API keys, tenants). Values of credential-like names
   * (`*key*`, `*token*`, `*secret*`, `*auth*`, `Cookie`) are kept out of the reports.
   */
  headers?: Record<string, string>;
  /**
   * Pace the requests to the rate limits the target announces in its RateLimit headers, so
   * that no 429 has to be waited out (default true).
   */
  pace?: boolean;
  /** Aborting stops the run after the requests in flight: cleanup runs, the report says so. */
  signal?: AbortSignal;
  /** Check names (default: all). */
  checks?: string[];
  /** operationIds or tags to cover (default: all) and to leave out. */
  include?: string[];
  exclude?: string[];
  seed?: number;
  /** Generated positive cases per operation beyond the examples (default 10). */
  maxExamples?: number;
  /** Parallel requests (default 8, decision 0030). */
  concurrency?: number;
  timeoutMs?: number;
  /** At most this many requests a second (default: no cap). */
  rateLimit?: number;
  /** Stop at the first failure. */
  bail?: boolean;
  /**
   * Also call operations marked `x-apikit-destructive` (e.g. a data reset). Off by default:
   * the runner must never destroy data on a target it did not create.
   */
  allowDestructive?: boolean;
  /** Your own registry (default: the built-in checks). */
  registry?: CheckRegistry;
  /** Told about the run as it goes, for progress output. */
  onProgress?: (event: ProgressEvent) => void;
}

export type ProgressEvent =
  | { kind: 'start'; operations: number; checks: string[] }
  | { kind: 'check'; check: string; index: number; total: number }
  | { kind: 'result'; result: CheckResult; requests: number }
  | { kind: 'wait'; seconds: number; reason: string }
  /** The target announced a rate-limit policy (once per policy and partition). */
  | { kind: 'policy'; policy: string; quota?: number; windowSeconds?: number }
  /** Pacing holds the requests back until `untilMs`: `policy` has no requests left. */
  | {
      kind: 'pace';
      policy: string;
      quota?: number;
      windowSeconds?: number;
      untilMs: number;
      requests: number;
    }
  | { kind: 'cleanup' };

/** The run could not start or go on: bad options, invalid spec, unreachable target, failed login. */
export class ConformanceSetupError extends Error {
  override name = 'ConformanceSetupError';
}

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
  const spec = await loadRunSpec(options.specPath).catch((error: Error) => {
    throw new ConformanceSetupError(
      error.message.startsWith('cannot fetch') || / is neither JSON nor YAML/.test(error.message)
        ? error.message
        : `the spec is not a valid OpenAPI 3.0 description: ${error.message}`,
    );
  });
  const allOperations = listOperations(spec);
  let operations: SpecOperation[];
  let destructive: SpecOperation[] = [];
  let checks;
  try {
    operations = selectOperations(allOperations, options.include, options.exclude);
    destructive = options.allowDestructive ? [] : operations.filter(isDestructive);
    operations = operations.filter((op) => !destructive.includes(op));
    checks = (options.registry ?? createDefaultRegistry()).select(options.checks);
  } catch (error) {
    throw new ConformanceSetupError((error as Error).message);
  }
  if (!/^https?:\/\//.test(options.baseUrl))
    throw new ConformanceSetupError(`not an http(s) URL: ${options.baseUrl}`);

  const responseChecks = checks.filter((c): c is ResponseCheck => c.kind === 'response');
  const scenarioChecks = checks.filter((c): c is ScenarioCheck => c.kind === 'scenario');
  const redactor = new SecretRedactor();
  redactor.add(options.password, 'user password');
  redactor.add(options.adminPassword, 'admin password');
  redactor.add(options.token, 'user token');
  for (const [name, value] of Object.entries(options.headers ?? {}))
    if (CREDENTIAL_HEADER.test(name)) redactor.add(value, `${name} header`);
  let pacedMs = 0;
  let pacedUntil = 0;
  const policies = new Map<string, PolicyBudget>();
  const client = new TargetClient({
    // Every answer may carry tokens issued to the run: learn them before anything is reported.
    onExchange: (exchange) => redactor.learnFrom(exchange.response.body),
    onWait: (seconds, request) =>
      options.onProgress?.({
        kind: 'wait',
        seconds,
        reason: `the target answered 429 to ${request.method} ${request.path.split('?')[0]}; waiting out its Retry-After`,
      }),
    onPolicy: (budget) => {
      // One line per policy, however many partitions (credentials) it counts separately.
      if (policies.has(budget.policy)) return;
      policies.set(budget.policy, budget);
      options.onProgress?.({ kind: 'policy', ...describePolicy(budget) });
    },
    onPace: (event: PaceEvent) => {
      // Waits of several budgets overlap: count the time covered, not each wait.
      const now = Date.now();
      pacedMs += Math.max(0, event.untilMs - Math.max(now, pacedUntil));
      pacedUntil = Math.max(pacedUntil, event.untilMs);
      options.onProgress?.({
        kind: 'pace',
        ...describePolicy(event.budget),
        untilMs: event.untilMs,
        requests: client.count,
      });
    },
    baseUrl: options.baseUrl,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.pace === false ? { pace: false } : {}),
    ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.concurrency ? { concurrency: options.concurrency } : {}),
    ...(options.rateLimit ? { rateLimit: options.rateLimit } : {}),
  });
  let stop = false;
  let incomplete: string | undefined;
  const abort = () => {
    stop = true;
    incomplete ??= `interrupted (${String(options.signal?.reason ?? 'aborted')})`;
    // A check waiting for a rate-limit window gives up now rather than after the window.
    client.interruptWaits();
  };
  if (options.signal?.aborted) abort();
  options.signal?.addEventListener('abort', abort, { once: true });
  const collector = new ResultCollector(redactor, (result) => {
    if (options.bail && result.status === 'failed') stop = true;
    options.onProgress?.({ kind: 'result', result, requests: client.count });
  });
  const random = seededRandom(seed);
  const fixtures = new Fixtures();
  // Logins and refreshes are exchanges of the spec's operations like any other.
  const auth = new AuthSession(allOperations, client, options, (op, exchange) =>
    collector.observe(op, exchange, responseChecks, (check) => check.check(exchange, op, ctx)),
  );
  const byId = new Map(allOperations.map((op) => [op.operationId, op]));
  const concurrency = Math.max(1, options.concurrency ?? DEFAULT_CONCURRENCY);

  const ctx: RunContext = {
    spec,
    operations,
    allOperations,
    validator: new ResponseValidator(spec),
    client,
    auth,
    random,
    generate: createCaseGenerator(random.fork('data'), { runTag: Date.now().toString(36) }),
    fixtures,
    options: { seed, maxExamples: options.maxExamples ?? 10 },
    operation: (id) => byId.get(id),
    async call(op, call = {}, credential?: Credential) {
      const secured = op.security.some((r) => Object.keys(r).length > 0);
      const who = credential ?? (secured ? 'user' : 'none');
      const authorization =
        call.authorization !== undefined
          ? call.authorization
          : ((await auth.authorization(who)) ?? null);
      const exchange = await client.send(buildRequest(op, { ...call, authorization }));
      collector.observe(op, exchange, responseChecks, (check) => check.check(exchange, op, ctx));
      const status = exchange.response.status;
      if (
        status >= 200 &&
        status < 300 &&
        exchange.request.method === 'POST' &&
        fixtures.isProducer(op)
      ) {
        fixtures.adopt(op, exchange, call.path ?? {}, call.body);
      }
      return exchange;
    },
    async each(items, fn) {
      let next = 0;
      const worker = async () => {
        while (next < items.length && !stop) await fn(items[next++] as (typeof items)[number]);
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
    },
    stopped: () => stop,
  };
  fixtures.bind(ctx);

  try {
    await client.send({ method: 'GET', path: '', headers: { Accept: 'application/json' } });
    // Both logins at once: each costs the target a password hash, and neither needs the other.
    await Promise.all(
      (['user', 'admin'] as const)
        .filter((who) => auth.has(who))
        .map((who) => auth.authorization(who)),
    );
  } catch (error) {
    await client.close();
    if (error instanceof TargetUnreachableError)
      throw new ConformanceSetupError(`the target is unreachable: ${error.message}`);
    throw new ConformanceSetupError((error as Error).message);
  }

  for (const op of destructive) {
    collector
      .recorder('*')
      .skip(
        op,
        'destructive (x-apikit-destructive): left out so the run cannot destroy data it did not create; pass --allow-destructive to include it',
      );
  }
  options.onProgress?.({
    kind: 'start',
    operations: operations.length,
    checks: checks.map((c) => c.name),
  });
  try {
    for (const [index, check] of scenarioChecks.entries()) {
      if (stop) break;
      options.onProgress?.({
        kind: 'check',
        check: check.name,
        index,
        total: scenarioChecks.length,
      });
      try {
        await check.run(ctx, collector.recorder(check.name));
      } catch (error) {
        if (error instanceof WaitInterruptedError) break;
        if (error instanceof TargetUnreachableError) {
          // The report of what ran so far is still worth writing: it says it is partial.
          incomplete = `the target stopped answering during ${check.name}: ${error.message}`;
          stop = true;
          break;
        }
        collector.recorder(check.name).fail(operations[0] ?? allOperations[0]!, {
          message: `the check itself crashed: ${(error as Error).message}`,
        });
      }
    }
    collector.finishResponseChecks();
  } finally {
    options.signal?.removeEventListener('abort', abort);
    // The cleanup waits for windows again: deleting what the run made matters more than speed.
    client.resumeWaits();
    options.onProgress?.({ kind: 'cleanup' });
    await fixtures.cleanup(concurrency).catch(() => undefined);
    await client.close();
  }

  const results = collector.results;
  const count = (status: CheckResult['status']) =>
    results.filter((r) => r.status === status).length;
  const failuresByCheck: Record<string, number> = {};
  for (const r of results)
    if (r.status === 'failed') failuresByCheck[r.check] = (failuresByCheck[r.check] ?? 0) + 1;
  return {
    summary: {
      target: options.baseUrl,
      specTitle: spec.info.title,
      specVersion: spec.info.version,
      seed,
      startedAt: new Date(started).toISOString(),
      durationMs: Date.now() - started,
      requests: client.count,
      checks: checks.map((c) => c.name),
      results: {
        total: results.length,
        passed: count('passed'),
        failed: count('failed'),
        skipped: count('skipped'),
      },
      failuresByCheck,
      ...(incomplete ? { incomplete } : {}),
      ...(policies.size > 0
        ? {
            pacedMs: Math.round(pacedMs),
            rateLimits: [...policies.values()].map(describePolicy),
          }
        : {}),
    },
    results,
    coverage: collector.coverage(operations),
  };
}

/** Header names whose values are credentials (API keys, tokens, cookies): kept out of reports. */
const CREDENTIAL_HEADER = /key|token|secret|auth|cookie|session|password|signature/i;

function describePolicy(budget: PolicyBudget): {
  policy: string;
  quota?: number;
  windowSeconds?: number;
} {
  return {
    policy: budget.policy,
    ...(budget.quota !== undefined ? { quota: budget.quota } : {}),
    ...(budget.windowSeconds !== undefined ? { windowSeconds: budget.windowSeconds } : {}),
  };
}

/** An operation the spec marks as destroying data a client did not create. */
function isDestructive(op: SpecOperation): boolean {
  return (op.operation as { 'x-apikit-destructive'?: unknown })['x-apikit-destructive'] === true;
}
