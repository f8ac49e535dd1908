import { stateMachine, uniqueFields, type StateMachine } from '../../spec/apikit-extensions.js';
import type { RecordedInteraction } from '../../spec/interactions/interaction-file.js';
import type { SpecOperation } from '../../spec/operations.js';
import { parentStates, writableIn } from '../../spec/relation-extensions.js';
import type { Credential } from '../auth-session.js';
import { moveTo, nearest } from '../checks/support/move-to-state.js';
import { buildRequest } from '../http/build-request.js';
import { pathParameters } from '../http/path-template.js';
import type { RunContext } from '../run-context.js';
import type { CreatedResource, Unavailable } from '../stateful/fixtures.js';

/** The path parameters of a replay: values by name, and the resource the run made for them. */
export interface ReplayPath {
  values: Record<string, unknown>;
  /** Recorded value -> the run's, per parameter name (ids in bodies and queries follow them). */
  mapped: Map<string, [string, unknown]>;
  resource: CreatedResource | undefined;
}

/**
 * The values of `template`'s parameters in a recorded path (`/api/v1/users/12` against
 * `/users/{id}`: `{ id: '12' }`), whatever base the mocks answered under; undefined when the
 * path is not one of the template's.
 */
export function matchPath(template: string, path: string): Record<string, string> | undefined {
  return pathParameters(template, path.split('?')[0] ?? '', { loose: true });
}

/**
 * The run's own resources in place of the recorded ids: the resource the contract's links
 * reach `op` from is made the way the runner's fixtures are (its parents first), and each
 * parameter a link gives is mapped; a parameter no link gives (a catalog's id, a role) keeps
 * its recorded value. Without any producer for `op`, every recorded value is kept.
 */
export async function replayPath(
  ctx: RunContext,
  op: SpecOperation,
  recorded: Record<string, string>,
  credential: Credential,
): Promise<ReplayPath | Unavailable> {
  const values: Record<string, unknown> = { ...recorded };
  const mapped = new Map<string, [string, unknown]>();
  if (Object.keys(recorded).length === 0 || ctx.fixtures.producersOf(op).length === 0)
    return { values, mapped, resource: undefined };
  const made = await ctx.fixtures.paramsFor(op, credential);
  if ('reason' in made) return { reason: `its state could not be made: ${made.reason}` };
  for (const [name, value] of Object.entries(made.parameters)) {
    if (!(name in recorded) || value === undefined) continue;
    mapped.set(name, [recorded[name] as string, value]);
    values[name] = value;
  }
  return { values, mapped, resource: made.resource };
}

/**
 * A recorded 404 at ids the run made: the resource is deleted first, so that its id is one
 * the backend no longer has (the contract's ids are not reused). Nothing to do when a value
 * the recording kept (no link gives it) is the one the 404 is about.
 */
export async function freeResource(
  ctx: RunContext,
  path: ReplayPath,
  recorded: Record<string, string>,
): Promise<Unavailable | undefined> {
  if (!path.resource || Object.keys(recorded).some((n) => !path.mapped.has(n))) return undefined;
  const link = path.resource.allLinks.find((l) => l.target.method === 'delete');
  if (!link)
    return {
      reason: `nothing deletes a resource of ${path.resource.producer.operationId}, so no absent id can be made`,
    };
  const who = ctx.auth.has('admin') ? 'admin' : 'user';
  const authorization = (await ctx.auth.authorization(who)) ?? null;
  const sent = await ctx.client.send({
    ...buildRequest(link.target, { path: link.parameters, authorization }),
    housekeeping: true,
  });
  if (sent.response.status >= 300 && sent.response.status !== 404)
    return { reason: `deleting the resource to free its id answered ${sent.response.status}` };
  path.resource.deleted = true;
  return undefined;
}

/**
 * A refusal the recording shows from a state (409 by the spec's `x-apikit-state-machine`,
 * `x-apikit-parent-states` or `x-apikit-writable-in`): the resource the replay acts on (or its
 * parent) is first moved into a state that refuses `op`. Undefined when done; the reason
 * when the recording's status is none of those the spec declares for `op`.
 */
export async function refusingState(
  ctx: RunContext,
  op: SpecOperation,
  interaction: RecordedInteraction,
  path: ReplayPath,
): Promise<Unavailable | undefined> {
  const status = interaction.response.status;
  const resource = path.resource;
  const unsetUp: Unavailable = {
    reason: `the ${status} it shows comes from a state of the mocks this replay cannot make through the contract`,
  };
  if (!resource) return unsetUp;
  const machine = stateMachine(resource.producer);
  const field = machine?.field;
  const current = field ? stateOf(resource.body, field) : undefined;
  if (machine && current) {
    // The resource itself: op is one of its transitions, or writes it only in some states.
    const allowed = allowedStates(machine, op, resource.producer);
    if (allowed && status === (allowed.status ?? machine.refusalStatus))
      return moveInto(ctx, machine, resource, current, (s) => !allowed.states.includes(s));
  }
  const parentRule = parentStates(op);
  if (parentRule && status === parentRule.status) {
    const parent = ctx.fixtures
      .live()
      .find(
        (r) => r.allLinks.some((l) => l.target.operationId === op.operationId) && r !== resource,
      );
    const parentMachine = parent && stateMachine(parent.producer);
    const parentState = parent && parentMachine && stateOf(parent.body, parentMachine.field);
    if (parent && parentMachine && parentState)
      return moveInto(ctx, parentMachine, parent, parentState, (s) =>
        parentRule.refused.includes(s),
      );
  }
  return unsetUp;
}

/** The states in which `op` is allowed on resources of `producer`, and its refusal's status. */
function allowedStates(
  machine: StateMachine,
  op: SpecOperation,
  producer: SpecOperation,
): { states: string[]; status?: number } | undefined {
  const transitions = machine.transitions.filter((t) => t.operation === op.operationId);
  // Where the machine makes moving to the state a resource has a no-op, that state is no refusal.
  const same = machine.sameState === 'noop' ? transitions.map((t) => t.to) : [];
  if (transitions.length > 0) return { states: [...transitions.flatMap((t) => t.from), ...same] };
  const writable = writableIn(producer);
  if (writable?.operations.includes(op.operationId))
    return { states: writable.states, status: writable.status };
  return undefined;
}

async function moveInto(
  ctx: RunContext,
  machine: StateMachine,
  resource: CreatedResource,
  current: string,
  wanted: (state: string) => boolean,
): Promise<Unavailable | undefined> {
  if (wanted(current)) return undefined;
  const target = nearest(machine, current, wanted);
  if (!target)
    return { reason: `no declared transition leads from ${current} to a state refusing it` };
  const moved = await moveTo(ctx, machine, resource, current, target);
  return 'reason' in moved ? { reason: `its state could not be made: ${moved.reason}` } : undefined;
}

function stateOf(body: unknown, field: string): string | undefined {
  const value = typeof body === 'object' && body !== null ? Reflect.get(body, field) : undefined;
  return typeof value === 'string' ? value : undefined;
}

/**
 * A recorded conflict on a unique field (`x-apikit-unique`): another resource holding the
 * values the replay sends is made first, by the producer of such resources, with a generated
 * body carrying them.
 */
export async function duplicateHolder(
  ctx: RunContext,
  op: SpecOperation,
  body: unknown,
  path: ReplayPath,
  credential: Credential,
): Promise<Unavailable | undefined> {
  const rule = uniqueFields(op);
  if (!rule || typeof body !== 'object' || body === null) return { reason: 'no unique field' };
  const producer = ctx.fixtures.isProducer(op) ? op : path.resource?.producer;
  if (!producer)
    return { reason: `no operation makes the resource ${op.operationId} conflicts with` };
  const values = Object.fromEntries(
    rule.fields.filter((f) => f in body).map((f) => [f, Reflect.get(body, f)]),
  );
  const [generated] = ctx.generate.positiveBodies(producer, 1);
  const parents = producer === op ? path.values : (path.resource?.pathParameters ?? {});
  const made = await ctx.call(
    producer,
    { path: parents, body: { ...(generated as object), ...values } },
    credential,
  );
  return made.response.status < 300
    ? undefined
    : { reason: `making the resource it conflicts with answered ${made.response.status}` };
}

/**
 * A list the frontend saw with items is given one of the run's own: the producer on the same
 * path (an order POSTed under the user whose orders are listed) makes it, so that the items'
 * fields are judged too. Nothing when no producer shares the path, or it refuses.
 */
export async function listItem(
  ctx: RunContext,
  op: SpecOperation,
  interaction: RecordedInteraction,
  path: ReplayPath,
  credential: Credential,
): Promise<void> {
  if (op.method !== 'get' || interaction.response.status !== 200) return;
  if (!hasItems(interaction.response.body)) return;
  const producer = ctx.fixtures.producers().find((p) => p.path === op.path);
  if (!producer || ctx.scope.unavailable(producer)) return;
  const [body] = ctx.generate.positiveBodies(producer, 1);
  await ctx.call(
    producer,
    { path: path.values, ...(body !== undefined ? { body } : {}) },
    credential,
  );
}

function hasItems(body: unknown): boolean {
  if (Array.isArray(body)) return body.length > 0;
  return (
    typeof body === 'object' &&
    body !== null &&
    Object.values(body).some((v) => Array.isArray(v) && v.length > 0)
  );
}
