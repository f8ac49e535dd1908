import { isDestructive } from '../../../spec/apikit-extensions.js';
import { isUnsafeMethod, type SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CheckRecorder, ScenarioCheck } from '../check.js';
import { answerShape, answersNoRoute, documents } from '../support/no-route.js';
import {
  describeResponse,
  fixtureCredential,
  pathParams,
  validCall,
} from '../support/probe-support.js';
import {
  invalidCall,
  noRouteAnswers,
  placeholderIds,
  probeCredential,
  sendProbe,
  type NoRouteAnswers,
} from '../support/route-probe.js';

/** The check's name: the one check whose results on a missing operation stand. */
export const OPERATION_IMPLEMENTED = 'operation_implemented';

/** The reason every other check's result on a missing operation becomes. */
export const NOT_IMPLEMENTED =
  'not implemented: the target answers it like a route it does not have (operation_implemented)';

/** What the probe learned of one operation. */
type Verdict =
  | { kind: 'routed'; exchange: Exchange }
  | { kind: 'missing'; exchanges: Exchange[]; how: string }
  /** Answered like no route with a status the spec documents: needs a resource that exists. */
  | { kind: 'unsure'; exchanges: Exchange[] }
  /** No verdict (a 429): taken as implemented, so the other checks still judge it. */
  | { kind: 'unknown'; reason: string };

/**
 * operation_implemented (decision 0096), first of the scenario checks: an operation the target
 * does not implement is found once, here, and every other check then leaves it alone (its
 * other results become skipped, "not implemented"). The target's answer to a path the spec
 * does not have is learned first (per method and credential); an operation whose every
 * request (an invalid one, then a valid one at ids no one holds) gets that same answer, or a
 * 405/501 it does not document, is missing. Where that answer is a status the operation
 * documents (a 404 for an absent id) it is missing only when a resource the run made is
 * answered so too, or, when none can be made, when that answer is not the documented one. A
 * valid write is sent only once its invalid twin met the no-route answer, and never at an id
 * the run did not make; a destructive one (with --allow-destructive) never: an implemented
 * operation is not driven by the probe.
 */
export const operationImplemented: ScenarioCheck = {
  kind: 'scenario',
  name: OPERATION_IMPLEMENTED,
  description:
    'Every selected operation is routed: not answered, valid or invalid, like a path the spec does not have (404/405/501); a missing one is reported once and skipped by the other checks',
  async run(ctx, record) {
    const ops = ctx.operations.filter((op) => op.method !== 'options');
    if (ops.length === 0) return record.skip(undefined, 'no selected operation to probe');
    const noRoute = noRouteAnswers(ctx);
    const unsure: { op: SpecOperation; exchanges: Exchange[] }[] = [];
    await ctx.each(ops, async (op) => {
      const verdict = await probe(ctx, op, noRoute);
      if (verdict.kind === 'unsure') unsure.push({ op, exchanges: verdict.exchanges });
      else settle(ctx, record, op, verdict);
    });
    // After the first pass, so that resources come only from producers known to be there;
    // producers among the unsure first, parents before children, so that no resource is
    // asked of a producer still in doubt (its answers would be judged by the response checks).
    const producers = unsure
      .filter(({ op }) => ctx.fixtures.isProducer(op))
      .sort((a, b) => depth(a.op) - depth(b.op));
    for (const { op, exchanges } of producers)
      settle(ctx, record, op, await withResource(ctx, op, exchanges, noRoute));
    await ctx.each(
      unsure.filter((u) => !producers.includes(u)),
      async ({ op, exchanges }) =>
        settle(ctx, record, op, await withResource(ctx, op, exchanges, noRoute)),
    );
    await settleOptions(ctx, record, noRoute);
  },
};

/**
 * The OPTIONS of a path follows the path's operations: missing, without a failure of its own,
 * when every one probed is missing; probed by itself (it is safe) when none of them was probed
 * (destructive ones are not, but with --allow-destructive), and then too only skipped when
 * the target lacks it.
 */
async function settleOptions(
  ctx: RunContext,
  record: CheckRecorder,
  noRoute: NoRouteAnswers,
): Promise<void> {
  const options = ctx.operations.filter((op) => op.method === 'options');
  await ctx.each(options, async (op) => {
    const probed = ctx.scope.all.filter(
      (o) => o.path === op.path && o.method !== 'options' && ctx.scope.includes(o),
    );
    if (probed.length > 0) {
      if (probed.every((o) => ctx.scope.missingReason(o))) {
        ctx.scope.markMissing(op, `no operation of ${op.path} is implemented`);
        record.skip(op, `not implemented: no operation of ${op.path} is`);
      }
      return;
    }
    const credential = fixtureCredential(ctx);
    const exchange = await sendProbe(ctx, op, { path: placeholderIds(op, false) }, credential);
    const expected = await noRoute('OPTIONS', credential);
    if (answersNoRoute(op, answerShape(exchange, ctx.client.basePath), expected)) {
      ctx.scope.markMissing(
        op,
        `OPTIONS ${op.path} answered like a route the target does not have`,
      );
      record.skip(
        op,
        `not implemented: OPTIONS ${op.path} answered like a path the spec does not have`,
      );
    }
  });
}

/** Path parameters: parents have fewer. */
const depth = (op: SpecOperation) => op.parameters.filter((p) => p.in === 'path').length;

/** The first pass: an invalid and a valid request, neither at a resource anyone holds. */
async function probe(
  ctx: RunContext,
  op: SpecOperation,
  noRoute: NoRouteAnswers,
): Promise<Verdict> {
  const credential = probeCredential(ctx, op);
  const expected = await noRoute(op.method.toUpperCase(), credential);
  const unsafe = isUnsafeMethod(op.method);
  const base = placeholderIds(op, unsafe);
  const invalid = invalidCall(ctx, op, base);
  const valid = validCall(ctx, op, { parameters: base, real: false });
  // A write is sent valid only once its invalid twin met the no-route answer; a destructive
  // one (a reset, with --allow-destructive) never: a valid request would do what it says.
  const destructive = isDestructive(op);
  if (destructive && !invalid)
    return { kind: 'unknown', reason: 'destructive, and no invalid request to probe it with' };
  const calls = destructive ? [invalid] : unsafe ? [invalid, valid] : [valid, invalid];
  const exchanges: Exchange[] = [];
  for (const call of calls) {
    if (!call) continue;
    const exchange = await sendProbe(ctx, op, call, credential);
    if (exchange.response.status === 429)
      return { kind: 'unknown', reason: 'answered 429: no verdict, taken as implemented' };
    if (!answersNoRoute(op, answerShape(exchange, ctx.client.basePath), expected))
      return { kind: 'routed', exchange };
    exchanges.push(exchange);
  }
  const last = exchanges.at(-1)!;
  const status = last.response.status;
  if (status !== 404 || !documents(op, 404))
    return {
      kind: 'missing',
      exchanges,
      how: `answered ${status} like a route the target does not have`,
    };
  return { kind: 'unsure', exchanges };
}

/**
 * The second pass, for an operation that documents the 404 it got: asked again at a resource
 * the run made for it. Without one, its 404 counts as "no route" only when it is not the
 * answer the spec documents (a framework's page, not the contract's 404).
 */
async function withResource(
  ctx: RunContext,
  op: SpecOperation,
  exchanges: Exchange[],
  noRoute: NoRouteAnswers,
): Promise<Verdict> {
  const credential = probeCredential(ctx, op);
  const params =
    ctx.fixtures.producersOf(op).length > 0 && !isDestructive(op)
      ? await pathParams(ctx, op)
      : undefined;
  if (params && !('reason' in params) && params.real) {
    const exchange = await sendProbe(ctx, op, validCall(ctx, op, params), credential);
    const expected = await noRoute(op.method.toUpperCase(), credential);
    if (!answersNoRoute(op, answerShape(exchange, ctx.client.basePath), expected))
      return { kind: 'routed', exchange };
    return {
      kind: 'missing',
      exchanges: [...exchanges, exchange],
      how: 'answered 404 like a route the target does not have, at a resource the run made for it too',
    };
  }
  const last = exchanges.at(-1)!;
  const documented = ctx.validator
    .validate(op.operationId, {
      method: last.request.method,
      status: last.response.status,
      headers: last.headers,
      body: last.response.body || null,
    })
    .filter((v) => v.kind !== 'header');
  if (documented.length === 0) return { kind: 'routed', exchange: last };
  return {
    kind: 'missing',
    exchanges,
    how: `answered 404 like a route the target does not have, and not with the 404 the spec documents (${documented[0]!.message})`,
  };
}

/** Records a verdict, and takes a missing operation out of what the other checks judge. */
function settle(ctx: RunContext, record: CheckRecorder, op: SpecOperation, verdict: Verdict): void {
  if (verdict.kind === 'routed') {
    const { status } = verdict.exchange.response;
    return record.pass(op, `routed: answered ${status}, not like a path the spec does not have`);
  }
  if (verdict.kind === 'unsure') return;
  if (verdict.kind === 'unknown') return record.skip(op, verdict.reason);
  const first = verdict.exchanges[0]!;
  const sent =
    verdict.exchanges.length === 1
      ? 'a request'
      : `all ${verdict.exchanges.length} requests (invalid and valid)`;
  ctx.scope.markMissing(op, verdict.how);
  record.fail(
    op,
    {
      message: `not implemented: ${sent} ${verdict.how}`,
      expected: `${op.method.toUpperCase()} ${op.path} routed: any answer but the one to a path the spec does not have`,
      actual: verdict.exchanges.map(describeResponse).join(' | '),
    },
    first,
  );
}
