import { acceptsCredentials } from '../spec/operation-security.js';
import { ResponseValidator } from '../spec/response-validator.js';
import { AuthSession, type AuthOptions, type Credential } from './auth-session.js';
import type { ResponseCheck } from './checks/check.js';
import { createCaseGenerator } from './generate/create-case-generator.js';
import { seededRandom } from '../spec/schema/seeded-random.js';
import { buildRequest } from './http/build-request.js';
import type { TargetClient } from './http/target-client.js';
import type { ResultCollector } from './result-collector.js';
import type { RunContext } from './run-context.js';
import type { RunPlan } from './run-plan.js';
import { Fixtures } from './stateful/fixtures.js';

/** Whether the run goes on: `stop` once it bails, is interrupted or loses the target. */
export interface RunState {
  stop: boolean;
  /** Why the run did not finish, when it did not. */
  incomplete?: string;
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
  // Logins and refreshes are exchanges of the spec's operations like any other.
  const auth = new AuthSession(plan.allOperations, client, parts.credentials, (op, exchange) =>
    collector.observe(op, exchange, responseChecks, (check) => check.check(exchange, op, ctx)),
  );
  const byId = new Map(plan.allOperations.map((op) => [op.operationId, op]));

  const ctx: RunContext = {
    spec: plan.spec,
    operations: plan.operations,
    allOperations: plan.allOperations,
    validator: new ResponseValidator(plan.spec),
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
      const who = credential ?? (acceptsCredentials(op) ? 'user' : 'none');
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
        while (next < items.length && !state.stop)
          await fn(items[next++] as (typeof items)[number]);
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
    },
    stopped: () => state.stop,
  };
  fixtures.bind(ctx);
  return ctx;
}
