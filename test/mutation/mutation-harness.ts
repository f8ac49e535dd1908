/**
 * The mutation harness: the reference server behind the fault proxy, one unmutated control
 * run per narrowing (recorded exchange by exchange, cached), seeded mutations chosen from what
 * the control saw, and one narrowed run of the runner per mutation, judged against its control.
 */
import { ConformanceSetupError, runConformance } from '../../conformance/run-conformance.js';
import type { ConformanceReport } from '../../conformance/report.js';
import { createDefaultRegistry } from '../../conformance/checks/builtin-checks.js';
import { loadSpec } from '../../spec/load-spec.js';
import { ResponseValidator } from '../../spec/response-validator.js';
import { seededRandom } from '../../spec/schema/seeded-random.js';
import {
  startTestServer,
  TEST_ADMIN_PASSWORD,
  TEST_USER_PASSWORD,
  type TestServer,
} from '../start-test-server.js';
import {
  startFaultProxy,
  type FaultHooks,
  type FaultProxy,
  type ProxyRequest,
  type ProxyResponse,
} from '../support/fault-injection/fault-proxy.js';
import { OPERATORS, type Exchange, type Operator } from './operators.js';
import { indexSpec, type SpecIndex } from './spec-index.js';

/** One mutation: the operator, the operation, which of its exchanges, and where in it. */
export interface Mutation {
  /** `seed:n`, enough to repeat it (`--seed S --only n`). */
  id: string;
  operator: string;
  operationId: string;
  /** The how-many-th exchange of the operation in the run (from 0). */
  index: number;
  /** The scenario check that made the exchange (`(setup)` before the first), and its ordinal there. */
  check: string;
  ordinal: number;
  /** The exchange as the control run had it: its request method and the answer's status. */
  method: string;
  status: number;
  /** Where in the exchange, exactly (a header, a JSON path, a status pair). */
  key: string;
  /** What it is classified by: a header name, `header:param`, a folded JSON path, `200->404`. */
  label: string;
}

export type Verdict = 'killed' | 'survived' | 'not-applied' | 'timeout';

export interface MutationOutcome {
  mutation: Mutation;
  verdict: Verdict;
  /** For killed: the checks that failed (and pass on the control run). */
  failedChecks: string[];
  /** `quick`: judged by the run of its own check and the response checks; `full`: by all. */
  stage: 'quick' | 'full';
  ms: number;
}

/** An exchange of a control run, with the check that made it and its ordinal there. */
interface ControlExchange extends Exchange {
  check: string;
  ordinal: number;
}

interface ControlRun {
  include: string[];
  checks: string[] | undefined;
  exchanges: ControlExchange[];
  /** `check|operationId` that fail without a mutation (noise, never counted as a kill). */
  failing: Set<string>;
}

/** The runner's seed: the same requests in the same order in every run of a narrowing. */
const RUN_SEED = 4711;
const RUN_TIMEOUT_MS = 30_000;
/** The checks that judge every exchange: part of every quick run. */
const RESPONSE_CHECKS = createDefaultRegistry()
  .all()
  .filter((c) => c.kind === 'response')
  .map((c) => c.name);

export interface MutationHarness {
  index: SpecIndex;
  /** The mutations of `seed`, the n-th chosen after the n-1 before it (reproducible). */
  mutations(seed: number, count: number): AsyncGenerator<Mutation>;
  run(mutation: Mutation): Promise<MutationOutcome>;
  close(): Promise<void>;
}

/**
 * Every run builds its own ResponseValidator and compiles the same schemas of the same frozen,
 * cached spec again: a third of a short run's CPU. The harness shares the compiled functions
 * between runs (keyed by the schema object); what they judge is unchanged.
 */
function shareCompiledSchemas(): void {
  type Compiling = { compile(schema: object): unknown; sharedCompile?: true };
  const proto = ResponseValidator.prototype as unknown as Compiling;
  if (proto.sharedCompile) return;
  const compile = proto.compile;
  const shared = new WeakMap<object, unknown>();
  proto.compile = function (this: Compiling, schema: object) {
    if (!shared.has(schema)) shared.set(schema, compile.call(this, schema));
    return shared.get(schema);
  };
  proto.sharedCompile = true;
}

/**
 * Checks left out of every run: their requests address no operation of the spec (the routes
 * outside the API), so no mutation can touch what they judge, and they cost a parse of the
 * served description per run.
 */
const EXCLUDED_CHECKS = ['open_routes', 'served_documents'];

export async function startMutationHarness(): Promise<MutationHarness> {
  shareCompiledSchemas();
  const index = indexSpec(await loadSpec());
  const server = await startTestServer();
  const proxy = await startFaultProxy(server.url, {
    username: 'admin@example.com',
    password: TEST_ADMIN_PASSWORD,
  });
  const controls = new Map<string, Promise<ControlRun>>();
  const operatorByName = new Map<string, Operator>(OPERATORS.map((o) => [o.name, o]));

  /** The unmutated run of a narrowing (all checks, or `check` and the response checks). */
  const control = (operationId: string, check?: string): Promise<ControlRun> => {
    const include = index.narrowing(operationId);
    const checks = check === undefined ? undefined : quickChecks(check);
    const key = `${include.join(',')}|${checks?.join(',') ?? '*'}`;
    let run = controls.get(key);
    if (!run) {
      run = (async () => {
        const exchanges: ControlExchange[] = [];
        const current = { check: SETUP };
        const report = await runNarrowed(
          server,
          proxy,
          include,
          checks,
          recorder(index, exchanges, current),
          current,
        );
        const failing = new Set(
          report.results
            .filter((r) => r.status === 'failed')
            .map((r) => `${r.check}|${r.operationId}`),
        );
        return { include, checks, exchanges, failing };
      })();
      controls.set(key, run);
    }
    return run;
  };

  /** One mutated run of a control's narrowing, the mutation at the operation's `at`-th exchange. */
  const judge = async (mutation: Mutation, operator: Operator, base: ControlRun, at: number) => {
    const state = { applied: false };
    const hooks = mutate(index, { ...mutation, index: at }, operator, base, state);
    let report: ConformanceReport | undefined;
    let setupFailed = false;
    let timedOut = false;
    try {
      report = await runNarrowed(server, proxy, base.include, base.checks, hooks, { check: SETUP });
    } catch (error) {
      if (error instanceof ConformanceSetupError) setupFailed = true;
      else if ((error as Error).name === 'TimeoutError') timedOut = true;
      else throw error;
    }
    if (report?.summary.incomplete?.startsWith('interrupted')) timedOut = true;
    const failedChecks = [
      ...new Set(
        (report?.results ?? [])
          .filter((r) => r.status === 'failed' && !base.failing.has(`${r.check}|${r.operationId}`))
          .map((r) => r.check),
      ),
    ].sort();
    if (setupFailed) failedChecks.push('(setup)');
    const verdict: Verdict = !state.applied
      ? 'not-applied'
      : failedChecks.length > 0
        ? 'killed'
        : timedOut
          ? 'timeout'
          : 'survived';
    return { verdict, failedChecks };
  };

  return {
    index,
    async *mutations(seed, count) {
      const random = seededRandom(seed);
      const operations = index.operations.map((op) => op.operationId);
      for (let n = 0; n < count; n++) {
        for (let attempt = 0; attempt < 50; attempt++) {
          const operationId = random.pick(operations);
          const operator = random.pick(OPERATORS);
          const { exchanges } = await control(operationId);
          const facts = { statuses: index.statusesOf(operationId) };
          const candidates = exchanges
            .filter((ex) => ex.operationId === operationId)
            .flatMap((ex) => operator.targets(ex, facts).map((target) => ({ ex, target })));
          if (candidates.length === 0) continue;
          const { ex, target } = random.pick(candidates);
          yield {
            id: `${seed}:${n}`,
            operator: operator.name,
            operationId,
            index: ex.index,
            check: ex.check,
            ordinal: ex.ordinal,
            method: ex.req.method,
            status: ex.res.status,
            key: target.key,
            label: target.label,
          };
          break;
        }
      }
    },
    async run(mutation) {
      const started = Date.now();
      const operator = operatorByName.get(mutation.operator);
      if (!operator) throw new Error(`no operator ${mutation.operator}`);
      // First the mutation's own check with the response checks: most mutations die there.
      const quick = await control(mutation.operationId, mutation.check);
      const same = quick.exchanges.find(
        (ex) =>
          ex.operationId === mutation.operationId &&
          ex.check === mutation.check &&
          ex.ordinal === mutation.ordinal,
      );
      if (same) {
        const first = await judge(mutation, operator, quick, same.index);
        if (first.verdict === 'killed')
          return { mutation, ...first, stage: 'quick', ms: Date.now() - started };
      }
      // Then every check of the narrowing: a later check may see what the first did not.
      const full = await judge(
        mutation,
        operator,
        await control(mutation.operationId),
        mutation.index,
      );
      return { mutation, ...full, stage: 'full', ms: Date.now() - started };
    },
    async close() {
      await proxy.close();
      await server.close();
    },
  };
}

async function runNarrowed(
  server: TestServer,
  proxy: FaultProxy,
  include: string[],
  checks: string[] | undefined,
  hooks: FaultHooks,
  current: { check: string },
): Promise<ConformanceReport> {
  await resetData(server);
  proxy.use(hooks);
  try {
    return await runConformance({
      baseUrl: `${proxy.url}/api/v1`,
      username: 'user@example.com',
      password: TEST_USER_PASSWORD,
      adminUsername: 'admin@example.com',
      adminPassword: TEST_ADMIN_PASSWORD,
      include,
      ...(checks ? { checks } : { excludeChecks: EXCLUDED_CHECKS }),
      onProgress: (event) => {
        if (event.kind === 'check') current.check = event.check;
      },
      allowDestructive: true,
      // One request at a time: the k-th exchange of an operation is the same in every run.
      concurrency: Number(process.env.MUTATION_CONCURRENCY ?? 1),
      seed: RUN_SEED,
      signal: AbortSignal.timeout(RUN_TIMEOUT_MS),
    });
  } finally {
    proxy.use(undefined);
  }
}

/** The initial data set again; a new admin login when the last token expired or was revoked. */
async function resetData(server: TestServer): Promise<void> {
  for (let attempt = 0; attempt < 2; attempt++) {
    const reset = await fetch(`${server.api}/admin/reset`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${server.adminToken}` },
    });
    if (reset.status === 204) return;
    if (reset.status !== 401) throw new Error(`reset answered ${reset.status}`);
    server.adminToken = (await server.login('admin@example.com', TEST_ADMIN_PASSWORD)).accessToken;
  }
  throw new Error('reset refused the admin twice');
}

/** Counts each operation's exchanges as they arrive: the request's number in its operation. */
function counter(index: SpecIndex) {
  const counts = new Map<string, number>();
  const numbers = new WeakMap<ProxyRequest, { operationId: string; index: number }>();
  return {
    count(req: ProxyRequest) {
      const operationId = index.operationOf(req);
      if (!operationId) return undefined;
      const n = counts.get(operationId) ?? 0;
      counts.set(operationId, n + 1);
      const id = { operationId, index: n };
      numbers.set(req, id);
      return id;
    },
    of: (req: ProxyRequest) => numbers.get(req),
  };
}

const SETUP = '(setup)';

function quickChecks(check: string): string[] {
  return [...new Set([...(check === SETUP ? [] : [check]), ...RESPONSE_CHECKS])];
}

/** Records every exchange, with the check running when its request arrived. */
function recorder(
  index: SpecIndex,
  exchanges: ControlExchange[],
  current: { check: string },
): FaultHooks {
  const numbers = counter(index);
  const ordinals = new Map<string, number>();
  const made = new WeakMap<ProxyRequest, { check: string; ordinal: number }>();
  return {
    request(req) {
      const id = numbers.count(req);
      if (id) {
        const key = `${id.operationId}|${current.check}`;
        const ordinal = ordinals.get(key) ?? 0;
        ordinals.set(key, ordinal + 1);
        made.set(req, { check: current.check, ordinal });
      }
      return req;
    },
    response(res, req) {
      const id = numbers.of(req);
      const by = made.get(req);
      if (id && by) exchanges.push({ ...id, ...by, req, res });
      return res;
    },
  };
}

function mutate(
  index: SpecIndex,
  mutation: Mutation,
  operator: Operator,
  base: ControlRun,
  state: { applied: boolean },
): FaultHooks {
  const numbers = counter(index);
  const isTarget = (id: { operationId: string; index: number } | undefined) =>
    id?.operationId === mutation.operationId && id.index === mutation.index;
  return {
    async request(req, ctx) {
      const id = numbers.count(req);
      if (operator.phase !== 'request' || !isTarget(id)) return req;
      const controlAnswer = base.exchanges.find(
        (ex) => ex.operationId === mutation.operationId && ex.index === mutation.index,
      )?.res;
      if (!controlAnswer || controlAnswer === undefined) return req;
      // The request must be the control's (same method and path), else the runs diverged.
      const answer = await operator.apply(req, mutation.key, ctx, controlAnswer);
      if (answer) state.applied = true;
      return answer ?? req;
    },
    response(res: ProxyResponse, req) {
      if (operator.phase !== 'response' || !isTarget(numbers.of(req))) return res;
      const next = operator.apply(res, mutation.key);
      if (next) state.applied = true;
      return next ?? res;
    },
  };
}
