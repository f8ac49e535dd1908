import type { StateMachine, StateTransition } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CreatedResource, ResolvedLink, Unavailable } from '../../stateful/fixtures.js';
import { linkCall, noLink } from './spec-links.js';
import {
  callAs,
  describe,
  flag,
  isSuccess,
  properties,
  requestSchema,
} from './stateful-support.js';

/** The declared transitions, shortest first, leading from `from` to `to` (none: undefined). */
export function pathTo(
  machine: StateMachine,
  from: string,
  to: string,
): StateTransition[] | undefined {
  const way = new Map<string, StateTransition[]>([[from, []]]);
  const queue = [from];
  for (let state = queue.shift(); state !== undefined; state = queue.shift()) {
    if (state === to) return way.get(state);
    for (const t of machine.transitions.filter((x) => x.from.includes(state!))) {
      if (way.has(t.to)) continue;
      way.set(t.to, [...way.get(state)!, { ...t, from: [state] }]);
      queue.push(t.to);
    }
  }
  return undefined;
}

/** The nearest state reachable from `from` that `wanted` accepts. */
export function nearest(
  machine: StateMachine,
  from: string,
  wanted: (state: string) => boolean,
): string | undefined {
  return machine.states
    .filter((s) => s !== from && wanted(s))
    .map((s) => ({ s, way: pathTo(machine, from, s) }))
    .filter((x) => x.way !== undefined)
    .sort((a, b) => a.way!.length - b.way!.length)[0]?.s;
}

/**
 * Takes `resource` from state `from` to `to` through the transitions its links reach: an
 * operation whose body has the machine's field gets `{ field: to }`, any other is called as
 * linked (with the credential it needs). The last answer, or why it could not be done.
 */
export async function moveTo(
  ctx: RunContext,
  machine: StateMachine,
  resource: CreatedResource,
  from: string,
  to: string,
): Promise<Exchange | Unavailable> {
  const way = pathTo(machine, from, to);
  if (!way || way.length === 0) return { reason: `no declared transition leads ${from} -> ${to}` };
  let last: Exchange | undefined;
  for (const t of way) {
    const reaches = (l: ResolvedLink) => l.target.operationId === t.operation;
    const link = resource.links.find(reaches);
    if (!link)
      return noLink(ctx, resource, reaches, `no link of the resource reaches ${t.operation}`);
    const call = linkCall(ctx, link);
    if ('reason' in call) return call;
    const body = setsField(link.target, machine.field) ? { body: { [machine.field]: t.to } } : {};
    last = await callAs(ctx, link.target, { ...call, ...body });
    if (!isSuccess(last.response.status))
      return {
        reason: `moving it ${t.from[0]} -> ${t.to} (${t.operation}) answered ${describe(last)}`,
      };
  }
  return last!;
}

function setsField(op: SpecOperation, field: string): boolean {
  const prop = properties(requestSchema(op))[field];
  return prop !== undefined && !flag(prop, 'readOnly');
}
