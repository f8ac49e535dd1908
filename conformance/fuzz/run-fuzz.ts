import { isUnsafeMethod, type SpecOperation } from '../../spec/operations.js';
import { credentialFor, describeResponse } from '../checks/support/probe-support.js';
import { createCaseGenerator } from '../generate/create-case-generator.js';
import { createEmailSource } from '../../spec/schema/unique-emails.js';
import {
  TargetClient,
  TargetUnreachableError,
  type Exchange,
  type PlannedRequest,
} from '../http/target-client.js';
import type { RunContext } from '../run-context.js';
import type { Credential } from '../auth-session.js';
import { costliestFirst } from '../costliest-first.js';
import { isDestructive } from '../../spec/apikit-extensions.js';
import { fuzzParams, type FuzzParams } from './fuzz-fixtures.js';
import { fuzzBases, fuzzCase, type FuzzCase } from './fuzz-operation.js';
import { judgeExchange } from './fuzz-oracles.js';
import { readBack } from './fuzz-read-back-step.js';
import { fuzzRequest } from './fuzz-request.js';
import {
  fuzzStats,
  newVerdict,
  note,
  type FuzzStats,
  type OperationVerdict,
} from './fuzz-tally.js';

export interface FuzzSettings {
  /** Fuzz cases per operation (login operations get at most LOGIN_CASES). */
  perOperation: number;
  /** Parallel connections of the fuzz phase (default 16): operations are fuzzed side by side. */
  concurrency?: number;
  /** Per-request timeout in ms (default 10 s); a request that times out is a finding. */
  timeoutMs?: number;
  /** Told as operations finish. */
  onProgress?: (progress: FuzzProgress) => void;
}

export interface FuzzProgress {
  done: number;
  operations: number;
  requests: number;
  elapsedMs: number;
}

export interface FuzzOutcome {
  stats: FuzzStats;
  verdicts: OperationVerdict[];
  skipped: { op: SpecOperation; reason: string }[];
}

/**
 * Operations fuzzed side by side unless told otherwise (decision 0030). The cases of one
 * operation stay in order, so the number changes how fast, never what is found.
 */
export const DEFAULT_FUZZ_CONCURRENCY = 16;

/** Login is rate limited per address on most targets: a few cases say enough. */
export const LOGIN_CASES = 12;
/** After this many 429s in a row the operation is left: the target is protecting itself. */
const MAX_429_STREAK = 3;
/** A DELETE that succeeded takes its resource; it is made again this often at most. */
const MAX_RECREATIONS = 4;

/**
 * The fuzz phase of a run: for each selected operation, `perOperation` requests generated
 * from its schemas and broken around them (`fuzzCase`), sent at the resources the run made
 * for that operation alone, each answer judged by the oracles (no 5xx, the spec's answer,
 * headers no value could split) and each accepted write read back. Operations are fuzzed in
 * parallel, the cases of one operation in order, so a run is reproducible from the seed.
 * 429s are counted, never waited out. Created resources are left to the run's cleanup.
 */
export async function runFuzz(ctx: RunContext, settings: FuzzSettings): Promise<FuzzOutcome> {
  const started = performance.now();
  const concurrency = Math.max(1, settings.concurrency ?? DEFAULT_FUZZ_CONCURRENCY);
  const client = createFuzzClient(ctx, settings, concurrency);
  const runTag = Date.now().toString(36);
  const seed = ctx.options.seed;
  const generate = createCaseGenerator(ctx.random.fork('fuzz-data'), { runTag });
  const statuses = new Map<number, number>();
  const verdicts: OperationVerdict[] = [];
  const skipped: FuzzOutcome['skipped'] = [];
  const login = ctx.auth.loginOperation?.operationId;

  const send = createSender(client, statuses);

  const fuzzOperation = async (op: SpecOperation): Promise<void> => {
    const credential = credentialFor(ctx, op);
    if (typeof credential === 'object' && 'reason' in credential) {
      skipped.push({ op, reason: credential.reason });
      return;
    }
    const verdict = newVerdict(op);
    verdicts.push(verdict);
    let params: FuzzParams = await fuzzParams(ctx, op);
    const emails = createEmailSource(`fuzz${runTag}${ctx.operations.indexOf(op)}`);
    const bases = fuzzBases(op, generate, settings.perOperation, emails);
    const random = ctx.random.fork(`fuzz:${op.operationId}`);
    const count =
      op.operationId === login
        ? Math.min(settings.perOperation, LOGIN_CASES)
        : settings.perOperation;
    let streak = 0;
    let recreated = 0;
    for (let index = 0; index < count && !ctx.stopped(); index++) {
      const testCase: FuzzCase = fuzzCase(op, index, bases, random, `${seed}-${runTag}`);
      const authorization = await ctx.auth.authorization(credential as Credential);
      const exchange = await send(fuzzRequest(op, testCase, params, authorization));
      verdict.cases++;
      const status = exchange.response.status;
      verdict.statuses.set(status, (verdict.statuses.get(status) ?? 0) + 1);
      if (status === 0) {
        note(verdict, noAnswer(exchange), exchange, testCase);
        continue;
      }
      for (const failure of judgeExchange(ctx.validator, op, exchange))
        note(verdict, failure, exchange, testCase);
      if (status === 429) {
        if (++streak >= MAX_429_STREAK) {
          verdict.rateLimitedOut = true;
          break;
        }
        continue;
      }
      streak = 0;
      if (status < 200 || status >= 300 || !isUnsafeMethod(op.method)) continue;
      verdict.accepted++;
      await readBack({ ctx, op, testCase, exchange, params, authorization, send, verdict });
      if (op.method === 'delete' && params.owned.size > 0 && recreated < MAX_RECREATIONS) {
        params = await fuzzParams(ctx, op);
        recreated++;
      }
    }
    settings.onProgress?.({
      done: verdicts.length + skipped.length,
      operations: ctx.operations.length,
      requests: client.count,
      elapsedMs: performance.now() - started,
    });
  };

  try {
    await scheduleOperations(ctx, concurrency, login, fuzzOperation);
  } finally {
    await client.close();
  }
  inSpecOrder(ctx, verdicts, skipped);
  const stats = fuzzStats(
    verdicts,
    {
      seed,
      perOperation: settings.perOperation,
      requests: client.count,
      durationMs: Math.round(performance.now() - started),
    },
    statuses,
  );
  return { stats, verdicts, skipped };
}

/**
 * Sends the phase's requests and counts their statuses. One request that never answers is a
 * finding (an exchange of status 0); three in a row mean the target is gone.
 */
function createSender(
  client: TargetClient,
  statuses: Map<number, number>,
): (request: PlannedRequest) => Promise<Exchange> {
  let unreachable = 0;
  return async (request: PlannedRequest): Promise<Exchange> => {
    try {
      const exchange = await client.send(request);
      unreachable = 0;
      const status = exchange.response.status;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      return exchange;
    } catch (error) {
      // One request that never answers (a parser stuck on deep JSON) is a finding; several
      // in a row mean the target is gone, and the run stops as it does elsewhere.
      if (!(error instanceof TargetUnreachableError) || ++unreachable >= 3) throw error;
      return unanswered(client, request, error.message);
    }
  };
}

/**
 * The phase's own client: 429s are counted, never waited out or paced; its requests count
 * as the run's, and what they spend of the rate limits is told to the run's client.
 */
function createFuzzClient(
  ctx: RunContext,
  settings: FuzzSettings,
  concurrency: number,
): TargetClient {
  return new TargetClient({
    baseUrl: ctx.client.origin + ctx.client.basePath,
    concurrency,
    ...(settings.timeoutMs ? { timeoutMs: settings.timeoutMs } : {}),
    retries429: 0,
    // 429s are counted by the phase, never waited out (README), so it is not paced either.
    pace: false,
    headers: ctx.client.extraHeaders,
    // The run's request count (progress, summary) includes the fuzz phase.
    onExchange: (exchange) => {
      ctx.client.count++;
      // The run's own client paces the cleanup: it must know what the fuzz phase spent.
      ctx.client.noteRateLimits(exchange);
    },
  });
}

/** Reported in the spec's order, whatever order they ran in. */
function inSpecOrder(
  ctx: RunContext,
  verdicts: OperationVerdict[],
  skipped: FuzzOutcome['skipped'],
): void {
  const position = (op: SpecOperation) => ctx.operations.indexOf(op);
  verdicts.sort((a, b) => position(a.op) - position(b.op));
  skipped.sort((a, b) => position(a.op) - position(b.op));
}

/** A stand-in exchange for a request that got no answer, so the report still has its curl. */
function unanswered(client: TargetClient, request: PlannedRequest, reason: string): Exchange {
  return {
    request: {
      method: request.method,
      url: client.url(request.path),
      headers: request.headers ?? {},
      ...(request.body !== undefined ? { body: request.body } : {}),
    },
    response: { status: 0, headers: {}, body: reason, durationMs: 0 },
    headers: new Headers(),
  };
}

function noAnswer(exchange: Exchange) {
  return {
    oracle: 'no_server_error' as const,
    message: 'the server gave no answer to a fuzzed request (timeout or closed connection)',
    expected: 'an answer below 500',
    actual: describeResponse(exchange) || exchange.response.body,
  };
}

/**
 * Operations side by side, the cases of each in order: one worker per connection. The costliest
 * first, so that they do not run alone at the end: each case of the login costs the target a
 * password hash, each accepted write a durable flush and a read-back. A destructive operation
 * (x-apikit-destructive, with --allow-destructive: a reset) would take the other operations'
 * resources away mid-case; it runs alone, after all of them.
 */
async function scheduleOperations(
  ctx: RunContext,
  concurrency: number,
  login: string | undefined,
  fuzzOperation: (op: SpecOperation) => Promise<void>,
): Promise<void> {
  const queue = costliestFirst(
    ctx.operations.filter((op) => !isDestructive(op)),
    login,
  );
  const worker = async () => {
    for (let op = queue.shift(); op && !ctx.stopped(); op = queue.shift()) await fuzzOperation(op);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, queue.length) }, worker));
  for (const op of ctx.operations.filter(isDestructive))
    if (!ctx.stopped()) await fuzzOperation(op);
}
