import type { StateMachine } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CreatedResource, ResolvedLink, Unavailable } from '../../stateful/fixtures.js';
import type { CheckRecorder } from '../check.js';
import { readBackEvidence } from '../support/read-back.js';
import { createWith, follow, linkCall, readLinks } from '../support/spec-links.js';
import {
  callAs,
  describe,
  documentedSuccesses,
  flag,
  isDocumented,
  isObject,
  isSuccess,
  jsonBody,
  properties,
  requestSchema,
} from '../support/stateful-support.js';

/** One declared transition from one state: the operation, the state before and after. */
export interface Edge {
  op: SpecOperation;
  from: string;
  to: string;
}

/** A resource the walk made, the link that reads it back and the state it is in. */
interface Live {
  resource: CreatedResource;
  reader: ResolvedLink;
  state: string;
}

/**
 * Walks a state machine: new resources, each led along transitions not yet taken (through
 * taken ones where needed) until every reachable one is taken; in each state reached for the
 * first time, refused transitions are tried first. Stops at the first failure.
 */
export class Walker {
  private uncovered: Edge[];
  private readonly probed = new Set<string>();
  private readonly passes = new Map<SpecOperation, string[]>();

  constructor(
    private readonly ctx: RunContext,
    private readonly record: CheckRecorder,
    private readonly producer: SpecOperation,
    private readonly machine: StateMachine,
    private readonly edges: Edge[],
  ) {
    this.uncovered = [...edges];
  }

  async run(): Promise<void> {
    while (this.uncovered.length > 0) {
      const before = this.uncovered.length;
      if (!(await this.walkOne())) return;
      if (this.uncovered.length === before) break;
    }
    const unreached = new Set(this.uncovered.map((e) => e.op));
    for (const op of unreached)
      this.record.skip(
        op,
        `transitions ${this.uncovered
          .filter((e) => e.op === op)
          .map(arrow)
          .join(', ')} are not reached from the initial state`,
      );
    for (const [op, said] of this.passes) this.record.pass(op, said.join('; '));
  }

  /** One new resource, led on until no transition left to take is reachable from its state. */
  private async walkOne(): Promise<boolean> {
    const made = await createWith(this.ctx, this.producer);
    if ('reason' in made) return this.skip(this.producer, made.reason);
    const reader = readLinks(made)[0];
    if (!reader) return this.skip(this.producer, 'no link of the create reads the resource back');
    const state = this.stateIn(made.body);
    const { initial, states } = this.machine;
    if (state === undefined || !states.includes(state) || (initial && state !== initial))
      return this.fail(this.producer, made.exchange, {
        message: `a new resource is in state ${String(state)}, not the initial state`,
        expected: `${this.machine.field}: ${initial ?? `one of ${states.join(', ')}`}`,
      });
    this.said(this.producer, `a new resource starts in ${state}`);
    const live: Live = { resource: made, reader, state };
    for (let step = 0; step <= 2 * states.length; step++) {
      if (!this.probed.has(live.state)) {
        this.probed.add(live.state);
        if (!(await this.refuseFrom(live)) || !(await this.sameState(live))) return false;
      }
      const next = this.uncovered.find((e) => e.from === live.state) ?? this.towards(live.state);
      if (!next) return true;
      if (!(await this.take(live, next))) return false;
      this.uncovered = this.uncovered.filter((e) => e !== next);
    }
    return true;
  }

  /** The first transition on a shortest way to a state with a transition left to take. */
  private towards(start: string): Edge | undefined {
    const wanted = new Set(this.uncovered.map((e) => e.from));
    const first = new Map<string, Edge>();
    const queue = [start];
    const seen = new Set(queue);
    for (let state = queue.shift(); state !== undefined; state = queue.shift()) {
      if (state !== start && wanted.has(state)) return first.get(state);
      for (const e of this.edges.filter((x) => x.from === state && !seen.has(x.to))) {
        seen.add(e.to);
        first.set(e.to, first.get(state) ?? e);
        queue.push(e.to);
      }
    }
    return undefined;
  }

  /** An allowed transition: a documented 2xx, and the resource read back in the new state. */
  private async take(live: Live, edge: Edge): Promise<boolean> {
    const sent = await this.send(live, edge.op, edge.to);
    if ('reason' in sent) return this.skip(edge.op, sent.reason);
    const status = sent.response.status;
    if (!isSuccess(status) || !isDocumented(edge.op, status))
      return this.fail(edge.op, sent, {
        message: `the allowed transition ${arrow(edge)} was not accepted`,
        expected: `a documented 2xx (${documentedSuccesses(edge.op).join(', ')})`,
      });
    const answered = jsonBody(sent);
    if (isObject(answered) && this.machine.field in answered && this.stateIn(answered) !== edge.to)
      return this.fail(edge.op, sent, {
        message: `the allowed transition ${arrow(edge)} (${status}) answered the resource in ${String(answered[this.machine.field])}`,
        expected: `an answer showing ${this.machine.field}: ${edge.to}`,
      });
    const read = await this.read(live);
    if ('reason' in read) return this.skip(this.producer, read.reason);
    if (read.state !== edge.to)
      return this.fail(
        edge.op,
        sent,
        {
          message: `after the allowed transition ${arrow(edge)} (${status}) the resource is in ${String(read.state)}`,
          expected: `${this.machine.field}: ${edge.to}`,
        },
        read.exchange,
      );
    live.state = edge.to;
    this.said(edge.op, `${arrow(edge)} ${status}`);
    return true;
  }

  /** Transitions no rule allows from the resource's state: refused, the state unchanged. */
  private async refuseFrom(live: Live): Promise<boolean> {
    for (const op of new Set(this.edges.map((e) => e.op))) {
      for (const to of this.refusedTargets(op, live.state)) {
        const edge = { op, from: live.state, to };
        const sent = await this.send(live, op, to);
        if ('reason' in sent) return this.skip(op, sent.reason);
        if (sent.response.status !== this.machine.refusalStatus)
          return this.fail(op, sent, {
            message: `the refused transition ${arrow(edge)} was ${isSuccess(sent.response.status) ? 'accepted' : 'not refused as declared'}`,
            expected: `${this.machine.refusalStatus} (x-apikit-state-machine)`,
          });
        const read = await this.read(live);
        if ('reason' in read) return this.skip(this.producer, read.reason);
        if (read.state !== live.state)
          return this.fail(
            op,
            sent,
            {
              message: `the refused transition ${arrow(edge)} changed the state to ${String(read.state)}`,
              expected: `${this.machine.field}: ${live.state}`,
            },
            read.exchange,
          );
        this.said(op, `${arrow(edge)} refused`);
      }
    }
    return true;
  }

  /**
   * Moving the resource to the state it has, where `sameState` says what it is: each operation
   * able to set that state (by the field, or an action moving to it) answers a documented 2xx
   * (`noop`) or the refusal status (`refused`), and the state stays.
   */
  private async sameState(live: Live): Promise<boolean> {
    const same = this.machine.sameState;
    if (!same) return true;
    const ops = new Set(this.edges.filter((e) => e.to === live.state).map((e) => e.op));
    for (const op of this.edges.map((e) => e.op)) if (this.setsField(op)) ops.add(op);
    for (const op of ops) {
      const edge = { op, from: live.state, to: live.state };
      const sent = await this.send(live, op, live.state);
      if ('reason' in sent) return this.skip(op, sent.reason);
      const status = sent.response.status;
      const noop = isSuccess(status) && isDocumented(op, status);
      if (same === 'noop' ? !noop : status !== this.machine.refusalStatus)
        return this.fail(op, sent, {
          message: `moving the resource to the state it has (${arrow(edge)}) was not ${same === 'noop' ? 'a no-op' : 'refused'}`,
          expected: `${same === 'noop' ? 'a documented 2xx' : this.machine.refusalStatus} (x-apikit-state-machine sameState: ${same})`,
        });
      const read = await this.read(live);
      if ('reason' in read) return this.skip(this.producer, read.reason);
      if (read.state !== live.state)
        return this.fail(
          op,
          sent,
          {
            message: `moving the resource to the state it has (${arrow(edge)}) changed it to ${String(read.state)}`,
            expected: `${this.machine.field}: ${live.state}`,
          },
          read.exchange,
        );
      this.said(op, `${arrow(edge)} ${same === 'noop' ? status : 'refused'}`);
    }
    return true;
  }

  /**
   * The states `op` may not move a resource to from `state`, other than `state` itself: for an
   * operation setting the field, every one (each is a clause a backend can get wrong on its
   * own); for any other, the states it moves to.
   */
  private refusedTargets(op: SpecOperation, state: string): string[] {
    const allowed = this.edges.filter((e) => e.op === op && e.from === state).map((e) => e.to);
    if (!this.setsField(op)) {
      // An action is one call whatever it moves to: refused only where no edge allows it and
      // it would not land on the state the resource has (that is `sameState`'s to judge).
      const targets = [...new Set(this.edges.filter((e) => e.op === op).map((e) => e.to))];
      return allowed.length > 0 || targets.includes(state) ? [] : targets.slice(0, 1);
    }
    return this.machine.states.filter((s) => s !== state && !allowed.includes(s));
  }

  /** Whether `op` sets the state by sending the field: its request body has it, writable. */
  private setsField(op: SpecOperation): boolean {
    const prop = properties(requestSchema(op))[this.machine.field];
    return prop !== undefined && !flag(prop, 'readOnly');
  }

  /** Calls `op` on the resource: `{ field: to }` when it sets the field, else as linked. */
  private async send(live: Live, op: SpecOperation, to: string): Promise<Exchange | Unavailable> {
    const link = live.resource.links.find((l) => l.target === op);
    if (!link) return { reason: `no link of the new resource reaches ${op.operationId}` };
    const call = linkCall(this.ctx, link);
    if ('reason' in call) return call;
    const body = this.setsField(op) ? { body: { [this.machine.field]: to } } : {};
    return callAs(this.ctx, op, { ...call, ...body });
  }

  private async read(live: Live): Promise<{ state: unknown; exchange: Exchange } | Unavailable> {
    const read = await follow(this.ctx, live.reader);
    if ('reason' in read) return read;
    if (read.response.status !== 200)
      return { reason: `reading the resource back answered ${describe(read)}` };
    return { state: this.stateIn(jsonBody(read)), exchange: read };
  }

  private stateIn(body: unknown): string | undefined {
    const state = isObject(body) ? body[this.machine.field] : undefined;
    return typeof state === 'string' ? state : undefined;
  }

  private said(op: SpecOperation, what: string): void {
    const said = this.passes.get(op) ?? [];
    if (!said.includes(what)) this.passes.set(op, [...said, what]);
  }

  private skip(op: SpecOperation, reason: string): false {
    this.record.skip(op, reason);
    return false;
  }

  /** `exchange` is the request that broke the rule; a read-back that showed it, its evidence. */
  private fail(
    op: SpecOperation,
    exchange: Exchange,
    failure: { message: string; expected: string },
    readBack?: Exchange,
  ): false {
    const actual = readBack ? readBackEvidence(exchange, readBack) : describe(exchange);
    this.record.fail(op, { ...failure, actual }, exchange);
    return false;
  }
}

const arrow = (e: { from: string; to: string }) => `${e.from} -> ${e.to}`;
