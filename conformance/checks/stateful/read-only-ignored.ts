import { isDeepStrictEqual } from 'node:util';
import { declaredValidation } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { OperationCall } from '../../http/build-request.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CheckRecorder, ScenarioCheck } from '../check.js';
import { readBackEvidence } from '../support/read-back.js';
import { roundTripBody } from '../support/round-trip-body.js';
import { freshTarget } from '../support/spec-links.js';
import {
  callAs,
  describe,
  differences,
  excerpt,
  flag,
  isObject,
  isSuccess,
  jsonBody,
  properties,
  readerOf,
  requestSchema,
  responseSchema,
  volatileProperties,
  type Schema,
} from '../support/stateful-support.js';
import { moveOutOfInitial, otherValue } from './read-only-support.js';

/**
 * `read_only_ignored`, where a description declares `x-apikit-validation:
 * { ignoreReadOnlyProperties: true }`: a PUT or PATCH whose body carries the read-only
 * properties of its request schema, each with a value other than the resource's, is accepted
 * and ignores them. Read back, no read-only property holds the value sent, and every property
 * keeps its value (a PUT re-sends the writable ones as read) but the stamps of the last change;
 * a creation stamp (`created...`) stays too. Where the resource has a state machine whose
 * state field is read-only here, a second resource is first moved out of the initial state by
 * an action, then written with the initial state: the state must stay where the action left it.
 */
export const readOnlyIgnored: ScenarioCheck = {
  kind: 'scenario',
  name: 'read_only_ignored',
  description:
    'Read-only properties sent in a PUT or PATCH body are accepted and ignored: the resource keeps its values (x-apikit-validation ignoreReadOnlyProperties)',
  async run(ctx, record) {
    if (!declaredValidation(ctx.spec).ignoreReadOnlyProperties)
      return record.skip(
        undefined,
        'the description does not declare x-apikit-validation ignoreReadOnlyProperties',
      );
    const ops = ctx.operations.filter(
      (op) => (op.method === 'put' || op.method === 'patch') && readOnlyNames(op).length > 0,
    );
    if (ops.length === 0)
      return record.skip(undefined, 'no selected PUT or PATCH accepts read-only properties');
    await ctx.each(ops, async (op) => {
      const reader = readerOf(ctx, op);
      if (!reader) return record.skip(op, `no GET operation on ${op.path} to read the resource`);
      const target = await freshTarget(ctx, op);
      if ('reason' in target) return record.skip(op, target.reason);
      const judge = new Judge(ctx, record, op, reader, target.call);
      if (!(await judge.write())) return;
      const moved = await moveOutOfInitial(ctx, op, target.resource.producer, readOnlyNames(op));
      if ('reason' in moved) return judge.pass(`no write after a transition: ${moved.reason}`);
      if (await judge.write(moved)) judge.pass();
    });
  },
};

/** The read-only properties of the operation's request schema. */
function readOnlyNames(op: SpecOperation): string[] {
  return Object.entries(properties(requestSchema(op)))
    .filter(([, p]) => flag(p, 'readOnly'))
    .map(([name]) => name);
}

/** One operation's writes with read-only properties, and what the read-backs show. */
class Judge {
  private readonly said: string[] = [];

  constructor(
    private readonly ctx: RunContext,
    private readonly record: CheckRecorder,
    private readonly op: SpecOperation,
    private readonly reader: SpecOperation,
    private readonly call: OperationCall,
  ) {}

  /**
   * One write carrying every read-only property the representation holds, on the fresh
   * resource or (`moved`) on a resource moved out of its initial state, sent that state.
   */
  async write(moved?: {
    call: OperationCall;
    field: string;
    initial: string;
    state: string;
  }): Promise<boolean> {
    const call = moved?.call ?? this.call;
    const before = await this.ctx.call(this.reader, call);
    const current = jsonBody(before);
    if (before.response.status !== 200 || !isObject(current))
      return this.skip(`the resource could not be read: ${describe(before)}`);
    const sent: Record<string, unknown> = {};
    for (const name of readOnlyNames(this.op).filter((n) => n in current)) {
      const schema = properties(requestSchema(this.op))[name] as Schema;
      const value =
        moved && name === moved.field ? moved.initial : otherValue(this.ctx, schema, current[name]);
      if (value !== undefined) sent[name] = value;
    }
    if (Object.keys(sent).length === 0)
      return this.skip('the representation holds none of the read-only properties');
    const body =
      this.op.method === 'put'
        ? { ...roundTripBody(this.ctx, requestSchema(this.op), current, false), ...sent }
        : sent;
    const written = await callAs(this.ctx, this.op, { ...call, body });
    if (!isSuccess(written.response.status)) {
      if (moved) return this.note(`in ${moved.state} the write was refused (${describe(written)})`);
      return this.refused(written, {
        message: `a body carrying the read-only properties ${Object.keys(sent).join(', ')} was refused`,
        expected: 'a documented 2xx, the read-only properties ignored (ignoreReadOnlyProperties)',
      });
    }
    const after = await this.ctx.call(this.reader, call);
    if (after.response.status !== 200)
      return this.skip(`the resource could not be read back: ${describe(after)}`);
    return this.judge(current, sent, after, written, moved ? `in ${moved.state}: ` : '');
  }

  private judge(
    before: Record<string, unknown>,
    sent: Record<string, unknown>,
    after: Exchange,
    written: Exchange,
    where: string,
  ): boolean {
    const now = jsonBody(after);
    const stamps = volatileProperties(responseSchema(this.reader, 200));
    for (const name of stamps) if (/^creat/i.test(name)) stamps.delete(name);
    const taken = Object.keys(sent).filter(
      (k) => isObject(now) && isDeepStrictEqual(now[k], sent[k]),
    );
    const changed = differences(before, now, stamps);
    if (taken.length === 0 && changed.length === 0) {
      return this.note(
        `${where}${written.response.status}, ${Object.keys(sent).join(', ')} ignored`,
      );
    }
    const names = [...new Set([...taken, ...changed])];
    return this.fail(written, after, {
      message:
        taken.length > 0
          ? `the ${this.op.method.toUpperCase()} took the read-only ${taken.join(', ')} from its body`
          : `a ${this.op.method.toUpperCase()} carrying read-only properties changed ${changed.join(', ')}`,
      expected: `${excerpt(before, names)} as before (sent ${excerpt(sent, names)}, to be ignored)`,
    });
  }

  private refused(written: Exchange, failure: { message: string; expected: string }): false {
    const actual = `${describe(written)} ${written.response.body.slice(0, 300)}`;
    this.record.fail(this.op, { ...failure, actual }, written);
    return false;
  }

  pass(note?: string): void {
    this.record.pass(this.op, [...this.said, ...(note ? [note] : [])].join('; '));
  }

  private note(what: string): true {
    this.said.push(what);
    return true;
  }

  private skip(reason: string): false {
    this.record.skip(this.op, reason);
    return false;
  }

  /** The write is the failure's request; the read-back that showed the fault its evidence. */
  private fail(
    written: Exchange,
    readBack: Exchange,
    failure: { message: string; expected: string },
  ): false {
    const actual = readBackEvidence(written, readBack);
    this.record.fail(this.op, { ...failure, actual }, written);
    return false;
  }
}
