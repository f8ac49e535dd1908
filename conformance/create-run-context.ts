import { acceptsCredentials } from '../spec/operation-security.js';
import { AuthSession, type AuthOptions, type Credential } from './auth-session.js';
import { GatewayValidator } from './gateway-validator.js';
import type { CheckRecorder, ResponseCheck } from './checks/check.js';
import type { SpecOperation } from '../spec/operations.js';
import { createCaseGenerator } from './generate/create-case-generator.js';
import { seededRandom } from '../spec/schema/seeded-random.js';
import { buildRequest } from './http/build-request.js';
import {
  TargetUnreachableError,
  WaitInterruptedError,
  type TargetClient,
} from './http/target-client.js';
import { judgeEveryAnswer } from './judge-every-answer.js';
import type { ResultCollector } from './result-collector.js';
import type { RunContext } from './run-context.js';
import type { RunPlan } from './run-plan.js';
import { Fixtures } from './stateful/fixtures.js';
import { OperationUnavailableError } from './run-scope.js';
import { writesReadBack } from './stateful/writes-read-back.js';

/** Whether the run goes on: `stop` once it bails, is interrupted or loses the target. */
export interface RunState {
  stop: boolean;
  /** Why the run did not finish, when it did not. */
  incomplete?: string;
  /**
   * The recorder of the scenario check running now (they run one at a time): `each` records
   * with it the skip of an item that needed an operation out of scope.
   */
  recorder?: CheckRecorder;
}

export interface RunContextParts {
  plan: RunPlan;
  client: TargetClient;
  collector: ResultCollector;
  credentials: AuthOptions;
  seed: number;
  maxExamples: number;
  allowDestructive?: boolean;
  provokeRateLimits?: boolean;
  concurrency: number;
  state: RunState;
  /** Told of each access token the run's logins get (the curl lines name them, 0098). */
  onToken?: (who: 'user' | 'admin', accessToken: string) => void;
}

/**
 * The context every check gets: each exchange goes through the response checks and the
 * coverage, and a 2xx POST of a producer is adopted as a fixture (deleted at cleanup).
 */
export function createRunContext(parts: RunContextParts): RunContext {
  const { plan, client, collector, state, concurrency } = parts;
  const responseChecks = plan.checks.filter((c): c is ResponseCheck => c.kind === 'response');
  const random = seededRandom(parts.seed);
  const fixtures = new Fixtures();
  const { scope } = plan;
  // Logins and refreshes are exchanges of the spec's operations like any other, judged where
  // the scope holds the operation.
  const auth = new AuthSession(
    plan.allOperations,
    client,
    parts.credentials,
    (op, exchange) => {
      if (scope.unavailable(op) === undefined)
        collector.observe(op, exchange, responseChecks, (check) => check.check(exchange, op, ctx));
    },
    parts.onToken,
  );
  const byId = new Map(plan.allOperations.map((op) => [op.operationId, op]));
  const attribute = judgeEveryAnswer({ client, scope, collector, responseChecks }, () => ctx);

  const ctx: RunContext = {
    spec: plan.spec,
    // Read at each use: operation_implemented takes out what the target lacks.
    get operations() {
      return scope.operations;
    },
    allOperations: plan.allOperations,
    scope,
    // Location and Link judged relative to the base URL given (a gateway prefix, 0098).
    validator: new GatewayValidator(plan.spec, client.basePath),
    client,
    auth,
    random,
    generate: createCaseGenerator(random.fork('data'), { runTag: Date.now().toString(36) }),
    fixtures,
    options: {
      seed: parts.seed,
      maxExamples: parts.maxExamples,
      allowDestructive: parts.allowDestructive === true,
      provokeRateLimits: parts.provokeRateLimits === true,
    },
    operation: (id) => byId.get(id),
    async call(op, call = {}, credential?: Credential) {
      const why = scope.unavailable(op);
      if (why) throw new OperationUnavailableError(op, why);
      const who = credential ?? (acceptsCredentials(op) ? 'user' : 'none');
      const authorization =
        call.authorization !== undefined
          ? call.authorization
          : ((await auth.authorization(who)) ?? null);
      const planned = buildRequest(op, { ...call, authorization });
      attribute(planned, op);
      // A successful write is read back before the check goes on (writes_read_back, 0125).
      const exchange = await writesReadBack(ctx, plan.checks, collector).send(op, call, planned);
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
      const errors: unknown[] = [];
      // An item that throws (a crash, an operation out of scope) leaves the others to finish:
      // the check's other results stand, and nothing of it runs on into the next check. One
      // that needed an operation out of scope is skipped, naming it (decision 0096).
      const settle = (item: (typeof items)[number], error: unknown) => {
        const subject = subjectOf(item);
        if (error instanceof OperationUnavailableError && subject && state.recorder)
          state.recorder.skip(subject, `skipped: it ${error.message}`);
        else errors.push(error);
      };
      const worker = async () => {
        while (next < items.length && !state.stop) {
          const item = items[next++] as (typeof items)[number];
          await fn(item).catch((error: unknown) => settle(item, error));
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
      // The run's own trouble (target gone, run stopping) before any one item's.
      const fatal = errors.find(
        (e) => e instanceof TargetUnreachableError || e instanceof WaitInterruptedError,
      );
      if (errors.length > 0) throw fatal ?? errors[0];
    },
    stopped: () => state.stop,
  };
  fixtures.bind(ctx);
  return ctx;
}

/** The operation an item of `each` is about: the item itself, its `op`, or a path's first. */
function subjectOf(item: unknown): SpecOperation | undefined {
  const isOperation = (x: unknown): x is SpecOperation =>
    typeof x === 'object' && x !== null && 'operationId' in x && 'responses' in x;
  if (isOperation(item)) return item;
  if (typeof item !== 'object' || item === null) return undefined;
  const { op, operations } = item as { op?: unknown; operations?: unknown };
  if (isOperation(op)) return op;
  return Array.isArray(operations) && isOperation(operations[0]) ? operations[0] : undefined;
}
