import { isDeepStrictEqual } from 'node:util';
import { initialItems, stateMachine } from '../../../spec/apikit-extensions.js';
import type { CheckFailure, ScenarioCheck } from '../check.js';
import type { CreatedResource } from '../../stateful/fixtures.js';
import type { RunContext } from '../../run-context.js';
import type { SpecOperation } from '../../../spec/operations.js';
import { itemsOf, listShape } from '../support/list-shape.js';
import { idParameter, roleNames, rolesOf } from '../support/session-support.js';
import { deleteLinkOf, follow, freshTarget, linkCall } from '../support/spec-links.js';
import { validBody } from '../support/round-trip-body.js';
import {
  callAs,
  describe,
  documentedSuccesses,
  isObject,
  isSuccess,
  jsonBody,
  requestSchema,
} from '../support/stateful-support.js';

/**
 * `put_create_and_replace`: a PUT that documents 201 besides 200 or 204 gives each of them
 * where RFC 9110 9.3.4 says: a valid PUT at an existing resource replaces it (200/204, not
 * 201); the same PUT at that id once the resource is deleted creates it there (201). The id
 * is one the target allocated itself and freed, never one the runner makes up: a PUT-create at
 * an id of the runner's choosing would move the target's id counter for good (decision 0076).
 * Where the resource's create declares a state machine, the resource a PUT creates starts in
 * its initial state too (decision 0080), and where it declares `x-apikit-initial-items`, the
 * resource a PUT created holds them too (read through the deleted resource's own links); where
 * `x-apikit-roles` names role links under the resource, a role given before the DELETE is not
 * held by the resource a PUT made again at its id (the links went with the deleted one). The replace's answer must not show a property's old
 * value where the PUT sent another (a replace that kept it). The resource made again is left to the fixtures'
 * cleanup, which deletes it.
 */
export const putCreateAndReplace: ScenarioCheck = {
  kind: 'scenario',
  name: 'put_create_and_replace',
  description:
    'A PUT documenting 201 replaces an existing resource with 200/204 and creates at a freed id with 201',
  async run(ctx, record) {
    const ops = ctx.operations.filter(
      (op) => op.method === 'put' && '201' in op.responses && requestSchema(op),
    );
    if (ops.length === 0)
      return record.skip(undefined, 'no selected PUT with a JSON body documents 201');
    await ctx.each(ops, async (op) => {
      const replacing = documentedSuccesses(op).filter((s) => s !== 201);
      if (replacing.length === 0)
        return record.skip(op, 'it documents 201 only, no status for replacing');
      const target = await freshTarget(ctx, op);
      if ('reason' in target) return record.skip(op, target.reason);
      const remove = deleteLinkOf(target.resource);
      if (!remove || remove.target.path !== op.path)
        return record.skip(
          op,
          `no DELETE on ${op.path} frees an id of the target's own, and PUT at a made-up id would move its id counter`,
        );
      const sent = validBody(ctx, op);
      const replaced = await callAs(ctx, op, { ...target.call, body: sent });
      if (!isSuccess(replaced.response.status))
        return record.skip(op, `a valid PUT was refused: ${describe(replaced)}`);
      if (!replacing.includes(replaced.response.status))
        return record.fail(
          op,
          {
            message: 'a PUT at an existing resource did not answer as replacing it',
            expected: replacing.join(' or '),
            actual: describe(replaced),
          },
          replaced,
        );
      const kept = keptValues(target.resource.body, sent, jsonBody(replaced));
      if (kept.length > 0)
        return record.fail(
          op,
          {
            message: `a PUT at an existing resource answered with the old ${kept.join(', ')}, not the values sent`,
            expected: `${kept.map((k) => `${k}: ${JSON.stringify(sent && (sent as Record<string, unknown>)[k])}`).join(', ')} (a PUT replaces)`,
            actual: `${describe(replaced)} ${replaced.response.body.slice(0, 300)}`,
          },
          replaced,
        );
      const given = await giveRole(ctx, op, target.call.path ?? {});
      // A role given may be one only its holders may delete (the protected role): as the admin.
      const asAdmin = linkCall(ctx, remove);
      const deleted =
        given && !('reason' in asAdmin)
          ? await ctx.call(remove.target, asAdmin, 'admin')
          : await follow(ctx, remove);
      if ('reason' in deleted) return record.skip(op, deleted.reason);
      if (!isSuccess(deleted.response.status))
        return record.skip(op, `the resource could not be deleted: ${describe(deleted)}`);
      const created = await callAs(ctx, op, { ...target.call, body: validBody(ctx, op, 1) });
      target.resource.deleted = !isSuccess(created.response.status);
      if (created.response.status !== 201)
        return record.fail(
          op,
          {
            message: 'a PUT at the id of a deleted resource did not create it there',
            expected: '201 (the spec documents 201 for a PUT that creates)',
            actual: describe(created),
          },
          created,
        );
      const machine = stateMachine(target.resource.producer);
      const made = jsonBody(created);
      const state = isObject(made) ? made[machine?.field ?? ''] : undefined;
      if (machine?.initial && state !== machine.initial)
        return record.fail(
          op,
          {
            message: `a resource a PUT created is in state ${String(state)}, not the initial state`,
            expected: `${machine.field}: ${machine.initial} (x-apikit-state-machine of ${target.resource.producer.operationId})`,
            actual: `${describe(created)} ${created.response.body.slice(0, 300)}`,
          },
          created,
        );
      const lacking = await lacksInitialItems(ctx, target.resource);
      if (lacking) return record.fail(op, lacking, created);
      const heldOver = given && (await stillHeld(ctx, given));
      if (heldOver) return record.fail(op, heldOver, created);
      record.pass(
        op,
        `${replaced.response.status} at an existing resource, 201 at its id once deleted${machine?.initial ? `, in ${machine.initial}` : ''}`,
        created,
      );
    });
  },
};

/**
 * The properties a PUT sent with a value other than the one the resource was made with, whose
 * answer shows the old value again: the replace kept them (a transformation of the sent value
 * is allowed, a return to the old one is not).
 */
function keptValues(before: unknown, sent: unknown, answer: unknown): string[] {
  if (!isObject(before) || !isObject(sent) || !isObject(answer)) return [];
  return Object.keys(sent).filter(
    (k) =>
      k in before &&
      k in answer &&
      !isDeepStrictEqual(sent[k], before[k]) &&
      isDeepStrictEqual(answer[k], before[k]),
  );
}

/**
 * What a resource a PUT created at the id of `resource` lacks of the items its producer's create
 * starts with (`x-apikit-initial-items`), read through the links of `resource` (same id).
 */
async function lacksInitialItems(
  ctx: RunContext,
  resource: CreatedResource,
): Promise<CheckFailure | undefined> {
  for (const { link: name, contains } of initialItems(resource.producer) ?? []) {
    const link = resource.links.find((l) => l.name === name);
    const shape = link && listShape(link.target);
    if (!link || !shape || ctx.scope.unavailable(link.target)) continue;
    const read = await follow(ctx, link);
    if ('reason' in read) continue;
    const items = read.response.status === 200 ? itemsOf(shape, jsonBody(read)) : undefined;
    if (!items) continue;
    const missing = contains.filter(
      (wanted) =>
        !items.some(
          (item) =>
            isObject(item) &&
            Object.entries(wanted).every(([k, v]) => isDeepStrictEqual(item[k], v)),
        ),
    );
    if (missing.length > 0)
      return {
        message: `a resource a PUT created lacks what a create starts with (${link.target.operationId})`,
        expected: `items matching ${JSON.stringify(missing)} (x-apikit-initial-items of ${resource.producer.operationId})`,
        actual: `${describe(read)} ${read.response.body.slice(0, 200)}`,
      };
  }
  return undefined;
}

/** A role of the catalog given to the resource at `path` before its DELETE. */
interface Given {
  list: SpecOperation;
  path: Record<string, unknown>;
  role: string;
}

/**
 * Where `x-apikit-roles` lists role links under the resource `op` replaces, gives it (as the
 * admin) a role of the catalog it does not hold, so that a link left behind by its DELETE shows.
 */
async function giveRole(
  ctx: RunContext,
  op: SpecOperation,
  path: Record<string, unknown>,
): Promise<Given | undefined> {
  const roles = rolesOf(ctx);
  if (!roles || !ctx.auth.has('admin')) return undefined;
  const { assign, list, catalog } = roles.ops;
  if (!list.path.startsWith(`${op.path}/`) || !assign.path.startsWith(`${list.path}/`))
    return undefined;
  if ([assign, list, catalog].some((o) => ctx.scope.unavailable(o))) return undefined;
  const [userParam, own] = [idParameter(list), idParameter(op)];
  const roleParam = assign.parameters.find((p) => p.in === 'path' && p.name !== userParam)?.name;
  if (!userParam || !own || !roleParam || path[own] === undefined) return undefined;
  const at = { [userParam]: path[own] };
  const held = roleNames(await ctx.call(list, { path: at }, 'admin'));
  const catalogBody = jsonBody(await ctx.call(catalog, {}, 'admin'));
  const entries = Array.isArray(catalogBody) ? catalogBody.filter(isObject) : [];
  const entry = held && entries.find((r) => !held.includes(String(r.name)));
  if (!entry || entry.id === undefined) return undefined;
  const [role, id] = [String(entry.name), entry.id];
  const res = await ctx.call(assign, { path: { ...at, [roleParam]: id } }, 'admin');
  return isSuccess(res.response.status) ? { list, path: at, role } : undefined;
}

/** The role given to the deleted resource, held by the one a PUT made at its id. */
async function stillHeld(ctx: RunContext, given: Given): Promise<CheckFailure | undefined> {
  const read = await ctx.call(given.list, { path: given.path }, 'admin');
  const held = roleNames(read);
  if (!held?.includes(given.role)) return undefined;
  return {
    message: `a resource a PUT created at a deleted one's id holds the role ${given.role} the deleted one was given`,
    expected: `no ${given.role} (the role links are deleted with the resource)`,
    actual: `${describe(read)} ${read.response.body.slice(0, 200)}`,
  };
}
