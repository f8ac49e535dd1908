import { isDeepStrictEqual } from 'node:util';
import { requiredRole, stateMachine } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { OperationCall } from '../../http/build-request.js';
import type { RunContext } from '../../run-context.js';
import type { Unavailable } from '../../stateful/fixtures.js';
import { createWith, linkCall } from '../support/spec-links.js';
import {
  callAs,
  describe,
  flag,
  isDateTime,
  isSelected,
  isSuccess,
  properties,
  requestSchema,
  type Schema,
} from '../support/stateful-support.js';

/** The values an enum schema allows, `allOf` parts included. */
function enumOf(schema: Schema): unknown[] | undefined {
  if (schema.enum) return schema.enum;
  for (const part of (schema.allOf ?? []) as Schema[]) {
    const found = enumOf(part);
    if (found) return found;
  }
  return undefined;
}

const DATES = ['2001-02-03T04:05:06.000Z', '2002-03-04T05:06:07.000Z'];

/**
 * A valid value of `schema` other than `current`: another member of an enum, a date-time
 * long past, else a generated value; undefined when none differs.
 */
export function otherValue(ctx: RunContext, schema: Schema, current: unknown): unknown {
  const candidates = enumOf(schema) ?? (isDateTime(schema) ? DATES : undefined);
  if (candidates) return candidates.find((v) => !isDeepStrictEqual(v, current));
  for (let i = 0; i < 10; i++) {
    const value = ctx.generate.value(schema);
    if (value !== null && value !== undefined && !isDeepStrictEqual(value, current)) return value;
  }
  return undefined;
}

/** A resource moved out of its initial state, and the call of `op` on it. */
export interface Moved {
  call: OperationCall;
  field: string;
  initial: string;
  state: string;
}

/**
 * Where `producer` declares a state machine whose field `op` takes as read-only: a new
 * resource, moved out of the initial state by the first declared action (an operation that
 * does not set the field) the create links to, the run selects and may call.
 */
export async function moveOutOfInitial(
  ctx: RunContext,
  op: SpecOperation,
  producer: SpecOperation,
  readOnly: string[],
): Promise<Moved | Unavailable> {
  const machine = stateMachine(producer);
  if (!machine?.initial) return { reason: `${producer.operationId} declares no state machine` };
  const { field, initial } = machine;
  if (!readOnly.includes(field)) return { reason: `${field} is not read-only in this body` };
  const usable = (id: string) => {
    const action = ctx.operation(id);
    if (!action || !isSelected(ctx, action)) return undefined;
    const prop = properties(requestSchema(action))[field];
    if (prop && !flag(prop, 'readOnly')) return undefined;
    return requiredRole(action) === undefined || ctx.auth.has('admin') ? action : undefined;
  };
  const edge = machine.transitions.find(
    (t) => t.from.includes(initial) && t.to !== initial && usable(t.operation),
  );
  if (!edge) return { reason: `no action the run may call moves it out of ${initial}` };
  const made = await createWith(ctx, producer);
  if ('reason' in made) return made;
  const via = made.links.find((l) => l.target.operationId === edge.operation);
  const write = made.links.find((l) => l.target === op);
  if (!via || !write) return { reason: `no link of the new resource reaches ${edge.operation}` };
  const call = linkCall(ctx, via);
  if ('reason' in call) return call;
  const sent = await callAs(ctx, via.target, call);
  if (!isSuccess(sent.response.status))
    return { reason: `the transition ${initial} -> ${edge.to} answered ${describe(sent)}` };
  const target = linkCall(ctx, write);
  if ('reason' in target) return target;
  const { body: _body, ...path } = target;
  return { call: path, field, initial, state: edge.to };
}
