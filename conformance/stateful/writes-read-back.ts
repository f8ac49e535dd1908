import type { SpecOperation } from '../../spec/operations.js';
import type { Check, CheckFailure, CheckRecorder } from '../checks/check.js';
import { readBackEvidence } from '../checks/support/read-back.js';
import { isSuccess, readerOf } from '../checks/support/stateful-support.js';
import type { OperationCall } from '../http/build-request.js';
import {
  TargetUnreachableError,
  WaitInterruptedError,
  type Exchange,
  type PlannedRequest,
} from '../http/target-client.js';
import type { ResultCollector } from '../result-collector.js';
import type { RunContext } from '../run-context.js';
import {
  grewByOne,
  readCollectionAfterCreation,
  readWholeCollection,
  type CollectionItems,
} from './created-once.js';
import { InFlightWrites, type WriteWindow } from './in-flight-writes.js';
import { getOperationAt } from './operation-at-url.js';
import { conclusive, deletedVerdict, storedVerdict } from './read-back-verdict.js';

/** The check the read-backs of the run's writes are reported under (decision 0125). */
export const WRITES_READ_BACK = 'writes_read_back';

/**
 * The writes of one operation read back in a run: the first ones made alone. Reading back
 * every such write of a default run adds about 6% to its requests (131 to 2,244); the bound
 * only keeps a run with many more examples per operation from paying in proportion.
 */
export const READ_BACKS_PER_OPERATION = 64;

/**
 * The creations of one operation whose collection is read before and after (two more GETs
 * each): the first few made alone, enough to see a creation applied twice in every check's
 * way of creating, at a cost a default run hardly notices.
 */
export const COUNTED_CREATIONS_PER_OPERATION = 8;

const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Where a write's resource is read: the GET operation and its path parameters. */
interface ReadTarget {
  reader: SpecOperation;
  path: Record<string, unknown>;
}

/** What the read-backs of one operation showed, for the one pass reported at the end. */
interface Tally {
  op: SpecOperation;
  /** Read-backs sent (the cap counts these), and those that judged the write. */
  sent: number;
  readBack: number;
  /** Creations whose collection was read before them. */
  counted: number;
  failed: boolean;
}

/**
 * Reads back the run's successful writes made through `ctx.call`: a PUT or PATCH through the
 * GET of its path, a 201 through the GET of its Location, a DELETE through the GET of its path
 * (gone: 404 or 410). With the write's own credential, and only when no other write may have
 * landed in between (InFlightWrites). A write answered with an `Idempotency-Key` may be the
 * replay of an older answer, which later writes may have overtaken: it is not judged.
 */
export class WritesReadBack {
  private readonly writes = new InFlightWrites();
  private readonly tallies = new Map<string, Tally>();

  constructor(
    private readonly ctx: RunContext,
    private readonly record: CheckRecorder | undefined,
  ) {}

  /** Sends `planned` (the request `ctx.call` built for `op` and `call`), reading a write back. */
  async send(op: SpecOperation, call: OperationCall, planned: PlannedRequest): Promise<Exchange> {
    if (!this.record || !UNSAFE.has(planned.method)) return this.ctx.client.send(planned);
    const write = this.writes.begin();
    try {
      const before = await this.collectionBefore(op, call, planned, write);
      const exchange = await this.ctx.client.send(planned);
      write.status = exchange.response.status;
      const target = this.wanted(op, planned, exchange) && this.targetOf(op, call, exchange);
      if (target && this.writes.alone(write))
        await this.readBack(op, call, planned, exchange, target, write, before).catch(rethrowFatal);
      return exchange;
    } finally {
      this.writes.end(write);
    }
  }

  /** One pass per operation whose writes were read back and always showed as answered. */
  report(record: CheckRecorder): void {
    const passed = [...this.tallies.values()].filter((t) => t.readBack > 0 && !t.failed);
    for (const t of passed)
      record.pass(t.op, `${t.readBack} write(s) read back right after, as answered`);
    if (!passed.length && ![...this.tallies.values()].some((t) => t.failed))
      record.skip(undefined, 'no successful write of the run could be read back alone');
  }

  /**
   * The collection a creation adds to, read whole before it is sent, when no other write is
   * in flight (the first few creations of each operation): to see that it grew by one.
   */
  private async collectionBefore(
    op: SpecOperation,
    call: OperationCall,
    planned: PlannedRequest,
    write: WriteWindow,
  ): Promise<CollectionItems | undefined> {
    const creates = op.method === 'post' && op.responses['201'] !== undefined;
    if (!creates || planned.method !== 'POST') return undefined;
    const tally = this.tallyOf(op);
    const keyed = header(planned, 'idempotency-key') !== undefined;
    if (keyed || tally.counted >= COUNTED_CREATIONS_PER_OPERATION || !this.writes.alone(write))
      return undefined;
    tally.counted++;
    const authorization = header(planned, 'authorization') ?? null;
    return readWholeCollection(this.ctx, op, call.path ?? {}, authorization).catch((error) => {
      rethrowFatal(error);
      return undefined;
    });
  }

  private wanted(op: SpecOperation, planned: PlannedRequest, exchange: Exchange): boolean {
    return (
      planned.method === op.method.toUpperCase() &&
      isSuccess(exchange.response.status) &&
      header(planned, 'idempotency-key') === undefined &&
      (this.tallies.get(op.operationId)?.sent ?? 0) < READ_BACKS_PER_OPERATION
    );
  }

  private targetOf(op: SpecOperation, call: OperationCall, exchange: Exchange) {
    let target: ReadTarget | undefined;
    if (op.method === 'post') {
      const location = exchange.headers.get('location');
      const at = exchange.response.status === 201 && location;
      const found = at ? getOperationAt(this.ctx, at, exchange.request.url) : undefined;
      target = found && { reader: found.op, path: found.path };
    } else {
      const reader = readerOf(this.ctx, op);
      target = reader && { reader, path: call.path ?? {} };
    }
    return target && this.ctx.scope.unavailable(target.reader) === undefined ? target : undefined;
  }

  private async readBack(
    op: SpecOperation,
    call: OperationCall,
    planned: PlannedRequest,
    exchange: Exchange,
    target: ReadTarget,
    write: WriteWindow,
    before: CollectionItems | undefined,
  ): Promise<void> {
    const authorization = header(planned, 'authorization') ?? null;
    const tally = this.tallyOf(op);
    tally.sent++;
    const read = await this.ctx.call(target.reader, { path: target.path, authorization });
    if (!this.writes.alone(write) || !conclusive(read)) return;
    tally.readBack++;
    const mismatch =
      op.method === 'delete'
        ? deletedVerdict(read)
        : storedVerdict(op, exchange, call.body, target.reader, read);
    if (mismatch)
      return this.fail(tally, { ...mismatch, actual: readBackEvidence(exchange, read) }, exchange);
    if (op.method !== 'post') return;
    if (before) return this.judgeGrowth(tally, op, call, planned, exchange, write, before);
    const listed = await readCollectionAfterCreation(
      this.ctx,
      op,
      call.path ?? {},
      exchange,
      authorization,
    );
    if (listed?.mismatch && this.writes.alone(write))
      this.fail(
        tally,
        { ...listed.mismatch, actual: readBackEvidence(exchange, listed.exchange) },
        exchange,
      );
  }

  /** The collection read whole before a creation holds exactly one item more after it. */
  private async judgeGrowth(
    tally: Tally,
    op: SpecOperation,
    call: OperationCall,
    planned: PlannedRequest,
    exchange: Exchange,
    write: WriteWindow,
    before: CollectionItems,
  ): Promise<void> {
    const authorization = header(planned, 'authorization') ?? null;
    const after = await readWholeCollection(this.ctx, op, call.path ?? {}, authorization);
    const mismatch = after && this.writes.alone(write) ? grewByOne(before, after) : undefined;
    if (after && mismatch)
      this.fail(
        tally,
        { ...mismatch, actual: readBackEvidence(exchange, after.exchange) },
        exchange,
      );
  }

  private fail(tally: Tally, failure: CheckFailure, exchange: Exchange): void {
    tally.failed = true;
    this.record?.fail(tally.op, failure, exchange);
  }

  private tallyOf(op: SpecOperation): Tally {
    let tally = this.tallies.get(op.operationId);
    if (!tally)
      this.tallies.set(
        op.operationId,
        (tally = { op, sent: 0, readBack: 0, counted: 0, failed: false }),
      );
    return tally;
  }
}

/** A read-back that fails leaves its write's answer to the check; the run's end is the run's. */
function rethrowFatal(error: unknown): void {
  if (error instanceof TargetUnreachableError || error instanceof WaitInterruptedError) throw error;
}

function header(planned: PlannedRequest, name: string): string | undefined {
  const found = Object.entries(planned.headers ?? {}).find(([n]) => n.toLowerCase() === name);
  return found?.[1];
}

const runs = new WeakMap<RunContext, WritesReadBack>();

/**
 * The read-back of `ctx`'s run, made on first use: it reads back only when `writes_read_back`
 * is among the run's checks (a run narrowed to other checks spends no request on it).
 */
export function writesReadBack(
  ctx: RunContext,
  checks: Check[],
  collector: ResultCollector,
): WritesReadBack {
  let run = runs.get(ctx);
  if (!run) {
    const selected = checks.some((c) => c.name === WRITES_READ_BACK);
    run = new WritesReadBack(ctx, selected ? collector.recorder(WRITES_READ_BACK) : undefined);
    runs.set(ctx, run);
  }
  return run;
}

/** The read-back of `ctx`'s run, if it made one. */
export function readBackOf(ctx: RunContext): WritesReadBack | undefined {
  return runs.get(ctx);
}
