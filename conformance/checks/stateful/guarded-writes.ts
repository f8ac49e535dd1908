import { stateMachine, writableIn, type StateMachine } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { CheckRecorder, ScenarioCheck } from '../check.js';
import { moveTo, nearest } from '../support/move-to-state.js';
import { guardedProducers, readResource, writeOneProperty } from '../support/guarded-write.js';
import { createWith } from '../support/spec-links.js';
import { describe, isObject, isSuccess } from '../support/stateful-support.js';

/**
 * `guarded_writes`, where a create declaring a state machine declares `x-apikit-writable-in`:
 * each named write (reached by a link) changing one plain property succeeds while the
 * resource is in an allowed state (a new one, when it starts there), and once moved to the
 * nearest state that is not allowed it answers the declared status and changes nothing (an
 * order's product, by PUT or PATCH, once PAID). Resources are left to cleanup.
 */
export const guardedWrites: ScenarioCheck = {
  kind: 'scenario',
  name: 'guarded_writes',
  description:
    'Writes declared writable only in some states (x-apikit-writable-in) succeed there and are refused, changing nothing, elsewhere',
  async run(ctx, record) {
    const producers = guardedProducers(ctx);
    if (producers.length === 0)
      return record.skip(undefined, 'no selected create declares x-apikit-writable-in');
    await ctx.each(producers, async (producer) => {
      const machine = stateMachine(producer) as StateMachine;
      const guard = writableIn(producer)!;
      for (const opId of guard.operations) {
        const op = ctx.operation(opId);
        if (!op || !ctx.operations.includes(op)) continue;
        const made = await createWith(ctx, producer);
        if ('reason' in made) return record.skip(op, made.reason);
        const start = stateOf(made.body, machine);
        const said: string[] = [];
        if (guard.states.includes(start)) {
          const ok = await writeOneProperty(ctx, made, op, machine);
          if ('reason' in ok) return record.skip(op, ok.reason);
          if (!isSuccess(ok.res.response.status))
            return fail(
              record,
              op,
              ok.res,
              `in ${start}, where it is allowed, it was refused`,
              'a 2xx',
            );
          said.push(`in ${start}: ${ok.res.response.status}`);
        }
        const other = nearest(machine, start, (s) => !guard.states.includes(s));
        if (!other)
          return record.skip(op, `no state outside ${guard.states.join(', ')} is reached`);
        const moved = await moveTo(ctx, machine, made, start, other);
        if ('reason' in moved) return record.skip(op, moved.reason);
        const sent = await writeOneProperty(ctx, made, op, machine);
        if ('reason' in sent) return record.skip(op, sent.reason);
        if (sent.res.response.status !== guard.status)
          return fail(
            record,
            op,
            sent.res,
            `in ${other} it was ${isSuccess(sent.res.response.status) ? 'accepted' : 'not refused as declared'}`,
            `${guard.status} (x-apikit-writable-in: only in ${guard.states.join(', ')})`,
          );
        const after = await readResource(ctx, made);
        if (isObject(after?.body) && after.body[sent.name] !== sent.before)
          return fail(
            record,
            op,
            after.exchange,
            `the refused write in ${other} changed ${sent.name} to ${JSON.stringify(after.body[sent.name])}`,
            `${sent.name}: ${JSON.stringify(sent.before)}`,
          );
        said.push(`in ${other}: ${guard.status}`);
        record.pass(op, said.join('; '));
      }
    });
  },
};

function stateOf(body: unknown, machine: StateMachine): string {
  return isObject(body) ? String(body[machine.field]) : '';
}

function fail(
  record: CheckRecorder,
  op: SpecOperation,
  res: Exchange,
  message: string,
  expected: string,
): void {
  record.fail(op, { message, expected, actual: describe(res) }, res);
}
