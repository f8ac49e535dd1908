import { stateMachine, writableIn, type StateMachine } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CreatedResource, Unavailable } from '../../stateful/fixtures.js';
import { changeableProperty, roundTripBody } from './round-trip-body.js';
import { follow, linkCall, noLink, readLinks } from './spec-links.js';
import { callAs, isObject, jsonBody, requestSchema } from './stateful-support.js';

/**
 * The selected creates that declare a state machine and `x-apikit-writable-in`, and that the
 * fixtures can make: what the checks of guarded writes start from.
 *
 * @example
 * guardedProducers(ctx).map((op) => op.operationId); // ['createUserOrder']
 */
export function guardedProducers(ctx: RunContext): SpecOperation[] {
  return ctx.operations.filter(
    (op) =>
      op.method === 'post' && stateMachine(op) && writableIn(op) && ctx.fixtures.isProducer(op),
  );
}

/**
 * The resource as its first read link answers it now, or undefined when that is not a 200.
 *
 * @example
 * const now = await readResource(ctx, made); // { body: { id: 7, status: 'PENDING', ... }, exchange }
 */
export async function readResource(
  ctx: RunContext,
  made: CreatedResource,
): Promise<{ body: unknown; exchange: Exchange } | undefined> {
  const reader = readLinks(made)[0];
  const res = reader ? await follow(ctx, reader) : undefined;
  return res && !('reason' in res) && res.response.status === 200
    ? { body: jsonBody(res), exchange: res }
    : undefined;
}

/** What {@link writeOneProperty} sent: its answer, the property changed, its value before and sent. */
export interface OnePropertyWrite {
  res: Exchange;
  name: string;
  before: unknown;
  value: unknown;
}

/**
 * A write through `op` (reached by a link of `made`) changing one plain property, the
 * machine's state field aside: a PATCH of it alone, or a PUT of the representation read with
 * it. `also` joins the body (a PATCH that moves the state at the same time, say).
 *
 * @example
 * const sent = await writeOneProperty(ctx, order, updateOrder, machine, { status: 'PAID' });
 */
export async function writeOneProperty(
  ctx: RunContext,
  made: CreatedResource,
  op: SpecOperation,
  machine: StateMachine,
  also: Record<string, unknown> = {},
): Promise<OnePropertyWrite | Unavailable> {
  const current = await readResource(ctx, made);
  if (!current) return { reason: 'the resource could not be read back' };
  const schema = requestSchema(op);
  const change = changeableProperty(ctx, schema, current.body);
  if (!change || change.name === machine.field)
    return { reason: 'no plain property to change was found' };
  const link = made.links.find((l) => l.target === op);
  const call = link
    ? linkCall(ctx, link)
    : noLink(
        ctx,
        made,
        (l) => l.target === op,
        `no link of the resource reaches ${op.operationId}`,
      );
  if ('reason' in call) return call;
  const whole = roundTripBody(ctx, schema, current.body, false);
  delete whole[machine.field];
  const body =
    op.method === 'put'
      ? { ...whole, [change.name]: change.value, ...also }
      : { [change.name]: change.value, ...also };
  const before = isObject(current.body) ? current.body[change.name] : undefined;
  const res = await callAs(ctx, op, { ...call, body });
  return { res, name: change.name, before, value: change.value };
}
