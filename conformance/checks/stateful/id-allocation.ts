import { idAllocation, type IdAllocation } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { ResolvedLink } from '../../stateful/fixtures.js';
import type { CheckRecorder, ScenarioCheck } from '../check.js';
import { fixtureCredential } from '../support/probe-support.js';
import { PUT_CREATE_GAP, putCreateAt } from '../support/put-create.js';
import { noLink } from '../support/spec-links.js';
import { describe, isObject, isSuccess } from '../support/stateful-support.js';

/**
 * `id_allocation`, where a creating POST declares `x-apikit-ids` (decision 0083): with
 * `increasing`, two creations get increasing ids, a creation after deleting the newest gets a
 * greater one still (never the freed id), and so does one after deleting an older one; with `putCreate`, a PUT at an absent id past the
 * newest (`If-None-Match: *`, so that it never replaces anything) is followed by a creation
 * with a greater id. Everything made is deleted.
 */
export const idAllocationCheck: ScenarioCheck = {
  kind: 'scenario',
  name: 'id_allocation',
  description:
    'Where x-apikit-ids is declared: assigned ids increase, a deleted id is never reused, and ids continue past a PUT-create',
  async run(ctx, record) {
    const ops = ctx.operations.filter((op) => op.method === 'post' && idAllocation(op));
    if (ops.length === 0)
      return record.skip(undefined, 'no selected operation declares x-apikit-ids');
    for (const op of ops) await judge(ctx, op, idAllocation(op)!, record);
  },
};

async function judge(ctx: RunContext, op: SpecOperation, ids: IdAllocation, record: CheckRecorder) {
  const credential = fixtureCredential(ctx);
  const create = async () => {
    const made = await ctx.fixtures.create(op, credential);
    if ('reason' in made) return made;
    const id = isObject(made.body) ? Number(made.body[ids.field]) : NaN;
    const deletes = (l: ResolvedLink) => l.target.method === 'delete';
    const remover = made.links.find(deletes);
    const noRemover = noLink(ctx, made, deletes, 'no linked DELETE to free an id with').reason;
    return { id, exchange: made.exchange, remover, noRemover, made };
  };
  const fail = (expected: string, exchange: Exchange, message: string) =>
    record.fail(op, { message, expected, actual: describe(exchange) }, exchange);
  const a = await create();
  if ('reason' in a) return record.skip(op, a.reason);
  const b = await create();
  if ('reason' in b) return record.skip(op, b.reason);
  if (!Number.isSafeInteger(a.id) || !Number.isSafeInteger(b.id))
    return record.skip(op, `the created resources carry no integer ${ids.field}`);
  if (ids.increasing) {
    if (b.id <= a.id)
      return fail(
        `${ids.field} > ${a.id}`,
        b.exchange,
        `a second creation got ${ids.field} ${b.id}, not above the first (${a.id})`,
      );
    // Deleting a created resource and creating again gives the id after it: its DELETE, then
    // the next creation, or why either could not be made.
    const afterDeleting = async (gone: typeof a) => {
      if (!gone.remover) return { reason: gone.noRemover };
      const { target, parameters } = gone.remover;
      const answer = await ctx.call(target, { path: parameters }, credential);
      if (!isSuccess(answer.response.status))
        return { reason: `the DELETE answered ${describe(answer)}` };
      gone.made.deleted = true;
      return create();
    };
    const c = await afterDeleting(b);
    if ('reason' in c) return record.skip(op, c.reason);
    if (!(c.id > b.id))
      return fail(
        `${ids.field} > ${b.id}`,
        c.exchange,
        `a creation after deleting ${ids.field} ${b.id} got ${c.id}: ids must never be reused`,
      );
    // A delete below the newest must not move the counter back either (a counter kept as
    // "the highest id held, plus one" passes the step above and fails this one).
    const d = await afterDeleting(a);
    if ('reason' in d) return record.skip(op, d.reason);
    if (!(d.id > c.id))
      return fail(
        `${ids.field} > ${c.id}`,
        d.exchange,
        `a creation after deleting ${ids.field} ${a.id} (below the newest, ${c.id}) got ${d.id}: a delete never moves the counter back`,
      );
    record.pass(
      op,
      `ids ${a.id} < ${b.id} < ${c.id} (after deleting ${b.id}) < ${d.id} (after deleting ${a.id})`,
      d.exchange,
    );
    if (ids.putCreate) await judgePutCreate(ctx, op, ids, d.id, create, record);
  } else if (ids.putCreate) await judgePutCreate(ctx, op, ids, b.id, create, record);
}

async function judgePutCreate(
  ctx: RunContext,
  op: SpecOperation,
  ids: IdAllocation,
  newest: number,
  create: () => Promise<{ id: number; exchange: Exchange } | { reason: string }>,
  record: CheckRecorder,
) {
  const put = ids.putCreate ? ctx.operation(ids.putCreate) : undefined;
  const remover = ctx.allOperations.find((o) => o.method === 'delete' && o.path === put?.path);
  // The PUT-create is made and taken away again: both must be the run's to call.
  const at = newest + PUT_CREATE_GAP;
  const made = await putCreateAt(ctx, ids, at, [remover]);
  if ('reason' in made) return record.skip(op, made.reason);
  const { path } = made;
  const credential = fixtureCredential(ctx);
  try {
    const next = await create();
    if ('reason' in next) return record.skip(op, next.reason);
    if (next.id > at)
      return record.pass(
        op,
        `after a PUT-create at ${at}, the next id is ${next.id}`,
        next.exchange,
      );
    record.fail(
      op,
      {
        message: `after a PUT-create at ${ids.field} ${at}, a creation got ${next.id}: the counter must move past ${at}`,
        expected: `${ids.field} > ${at}`,
        actual: describe(next.exchange),
      },
      next.exchange,
    );
  } finally {
    if (remover) await ctx.call(remover, { path }, credential);
  }
}
