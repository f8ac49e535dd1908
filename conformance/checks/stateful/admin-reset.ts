import { idAllocation, serviceDeclaration } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CheckFailure, CheckRecorder, ScenarioCheck } from '../check.js';
import { credentialFor } from '../support/probe-support.js';
import { validBody } from '../support/round-trip-body.js';
import { PUT_CREATE_GAP, putCreateAt } from '../support/put-create.js';
import { logIn, sessionOf, tokensOf } from '../support/session-support.js';
import { readBackEvidence } from '../support/read-back.js';
import {
  callAs,
  describe,
  isObject,
  isSuccess,
  jsonBody,
  parameter,
} from '../support/stateful-support.js';

/** A resource made through a creating operation that declares `x-apikit-ids`. */
interface Made {
  id: number;
  location: string;
}

async function make(
  ctx: RunContext,
  creator: SpecOperation,
  headers: Record<string, string>,
  n: number,
): Promise<Made | undefined> {
  const exchange = await callAs(ctx, creator, { headers, body: validBody(ctx, creator, n) });
  const body = jsonBody(exchange);
  const field = idAllocation(creator)!.field;
  const location = exchange.headers.get('location');
  if (!isSuccess(exchange.response.status) || !isObject(body) || !location) return undefined;
  const id = body[field];
  return typeof id === 'number' ? { id, location } : undefined;
}

/** GET of a Location (path-absolute or absolute), as the admin, outside any operation's tally. */
async function readLocation(ctx: RunContext, location: string): Promise<Exchange> {
  const path = new URL(location, ctx.client.origin).pathname.slice(ctx.client.basePath.length);
  const authorization = await ctx.auth.authorization(ctx.auth.has('admin') ? 'admin' : 'user');
  return ctx.client.send({
    method: 'GET',
    path,
    headers: {
      Accept: 'application/json',
      ...(authorization ? { Authorization: authorization } : {}),
    },
  });
}

/** A refresh token issued before the reset, through a login of the given account. */
async function refreshTokenBefore(ctx: RunContext): Promise<string | undefined> {
  const session = sessionOf(ctx);
  const account = ctx.auth.credentials('user') ?? ctx.auth.credentials('admin');
  if (!session?.refresh || !account) return undefined;
  return tokensOf(await logIn(ctx, session, account.username, account.password)).refresh;
}

/**
 * Where the creator declares `putCreate`, a PUT-create past the newest id, which the reset
 * then takes away: its id, for the counter must stay past it too. Undefined when none is made.
 */
async function putCreatePast(
  ctx: RunContext,
  creator: SpecOperation,
  newest: number,
): Promise<number | undefined> {
  const ids = idAllocation(creator)!;
  if (!ids.increasing || !ids.putCreate) return undefined;
  const made = await putCreateAt(ctx, ids, newest + PUT_CREATE_GAP);
  return 'reason' in made ? undefined : newest + PUT_CREATE_GAP;
}

async function judge(
  ctx: RunContext,
  record: CheckRecorder,
  reset: SpecOperation,
  creator: SpecOperation,
) {
  // The same Idempotency-Key before and after (another body): the reset must have forgotten it.
  const keyName = parameter(creator, 'header', 'Idempotency-Key')?.name;
  const headers = keyName ? { [keyName]: `apikit-reset-${crypto.randomUUID()}` } : {};
  const before = await make(ctx, creator, headers, 0);
  if (!before)
    return record.skip(reset, `${creator.operationId} made nothing to see the reset take away`);
  const past = await putCreatePast(ctx, creator, before.id);
  const refreshToken = await refreshTokenBefore(ctx);
  const answer = await callAs(ctx, reset, reset.operation.requestBody ? { body: {} } : {});
  const fail = (failure: CheckFailure, exchange: Exchange) => record.fail(reset, failure, exchange);
  if (!isSuccess(answer.response.status))
    return fail(
      { message: `${reset.operationId} was refused`, expected: 'a 2xx', actual: describe(answer) },
      answer,
    );
  const gone = await readLocation(ctx, before.location);
  if (gone.response.status !== 404 && gone.response.status !== 410)
    return fail(
      {
        message: `${before.location}, made before ${reset.operationId}, is still there`,
        expected: '404 (what was made since the initial data set is gone)',
        actual: readBackEvidence(answer, gone),
      },
      answer,
    );
  const session = sessionOf(ctx);
  if (refreshToken && session?.refresh) {
    const refreshed = await ctx.call(session.refresh, { body: { refreshToken } }, 'none');
    if (isSuccess(refreshed.response.status))
      return fail(
        {
          message: `a refresh token issued before ${reset.operationId} still works`,
          expected: 'refused (refresh tokens are cleared by the reset)',
          actual: describe(refreshed),
        },
        refreshed,
      );
  }
  const after = await make(ctx, creator, headers, 1);
  if (keyName && !after)
    return fail(
      {
        message: `${creator.operationId} after ${reset.operationId}, with the ${keyName} of one made before, made nothing`,
        expected: `a new resource (the reset forgets every ${keyName} sent before it)`,
        actual: 'no resource made (the key refused or replayed)',
      },
      answer,
    );
  const newest = Math.max(before.id, past ?? before.id);
  const how = past === undefined ? 'assigned before' : `PUT-created before (${before.id} assigned)`;
  if (after && idAllocation(creator)!.increasing && after.id <= newest)
    return fail(
      {
        message: `${creator.operationId} after ${reset.operationId} assigned id ${after.id}, not past ${newest} ${how}`,
        expected: `an id greater than ${newest} (the counters are kept: no id is reused)`,
        actual: `id ${after.id} at ${after.location}`,
      },
      answer,
    );
  record.pass(
    reset,
    `made before: gone; refresh token: ${refreshToken ? 'refused' : 'none to try'}; next id ${after?.id ?? '?'} > ${newest}`,
  );
}

/**
 * `admin_reset`, with --allow-destructive, where `x-apikit-service.reset` names the operation:
 * a resource made through the first creating operation declaring `x-apikit-ids` is gone after
 * the reset (404), a refresh token issued before it is refused, and the next resource made gets
 * an id past the first, and past a PUT-create beyond it where `putCreate` is declared (the
 * counters are kept); where the creation takes an `Idempotency-Key`,
 * both are made under one key (with other bodies): the reset forgot it, so the second is made. Registered late, since the reset takes away
 * what the run made (its fixtures' cleanup then meets 404s) and its refresh tokens.
 */
export const adminReset: ScenarioCheck = {
  kind: 'scenario',
  name: 'admin_reset',
  description:
    'With --allow-destructive, the declared reset (x-apikit-service.reset): what was made is gone, refresh tokens refused, ids continue',
  async run(ctx, record) {
    const id = serviceDeclaration(ctx.spec).reset;
    const reset = id ? ctx.operation(id) : undefined;
    if (!reset) return record.skip(undefined, 'the spec does not declare x-apikit-service.reset');
    if (!ctx.options.allowDestructive)
      return record.skip(reset, "resets the target's data: pass --allow-destructive to let it");
    const who = credentialFor(ctx, reset);
    if (typeof who === 'object' && 'reason' in who) return record.skip(reset, who.reason);
    const creator = ctx.allOperations.find((op) => idAllocation(op));
    if (!creator) return record.skip(reset, 'no creating operation declares x-apikit-ids');
    await judge(ctx, record, reset, creator);
  },
};
