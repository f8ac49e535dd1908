import { needsCredentials } from '../../../spec/operation-security.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { OperationCall } from '../../http/build-request.js';
import type { Exchange } from '../../http/target-client.js';
import { costliestFirst } from '../../costliest-first.js';
import { eachInOrder } from '../support/each-in-order.js';
import type { ScenarioCheck } from '../check.js';
import {
  answeredBeforeData,
  bodyMediaType,
  credentialFor,
  describeResponse,
  parseJson,
  pathParams,
  requiredRole,
  statusTally,
  type Unavailable,
} from '../support/probe-support.js';

/**
 * True when a 422 says the data is invalid (a validation problem listing `errors`, or a type
 * or title about validation), rather than refusing it on business grounds (an unknown
 * reference, a reused idempotency key).
 */
export function isValidationProblem(exchange: Exchange): boolean {
  const body = parseJson(exchange.response.body);
  if (!body || typeof body !== 'object') return false;
  const problem = body as Record<string, unknown>;
  if (Array.isArray(problem.errors) && problem.errors.length > 0) return true;
  if (Array.isArray(problem.detail)) return true;
  return [problem.type, problem.title].some(
    (v) => typeof v === 'string' && /validat|schema|malformed/i.test(v),
  );
}

/** Whether an answer rejects the request's data as invalid. */
export function rejectsAsInvalid(exchange: Exchange): boolean {
  const status = exchange.response.status;
  return (
    status === 400 ||
    status === 413 ||
    status === 415 ||
    (status === 422 && isValidationProblem(exchange))
  );
}

/** The valid requests to send, or why there are none that are valid as a whole. */
function positiveCalls(
  ctx: Parameters<ScenarioCheck['run']>[0],
  op: SpecOperation,
): OperationCall[] | Unavailable {
  const max = Math.max(1, ctx.options.maxExamples);
  const mediaType = bodyMediaType(op);
  if (op.requestBody?.required && !mediaType)
    return { reason: 'its body is not JSON, which the runner cannot generate' };
  const bodies = op.requestBody && mediaType ? ctx.generate.positiveBodies(op, max) : [];
  if (op.requestBody?.required && bodies.length === 0)
    return { reason: 'no valid body could be generated for it' };
  const hasQuery = op.parameters.some((p) => p.in === 'query');
  const queries = hasQuery ? ctx.generate.positiveQueries(op, max) : [];
  const count = Math.max(bodies.length, queries.length);
  if (count === 0) return { reason: 'the generator made no positive data for it' };
  return Array.from({ length: count }, (_, i) => ({
    ...(bodies.length ? { body: bodies[i % bodies.length], contentType: mediaType ?? null } : {}),
    ...(queries.length ? { query: queries[i % queries.length] } : {}),
  }));
}

/**
 * positive_data_acceptance: data the spec calls valid (its examples, then generated values
 * up to the boundaries) is not refused as invalid. 400, 413, 415 and a 422 that is a
 * validation problem fail; business answers (404, 409, 422 for an unknown reference, 403) do
 * not, since valid data may still clash with the resource's state.
 */
export const positiveDataAcceptance: ScenarioCheck = {
  kind: 'scenario',
  name: 'positive_data_acceptance',
  description: 'Bodies and queries the spec calls valid are not rejected as invalid',
  async run(ctx, record) {
    const ops = ctx.operations.filter(
      (op) => op.requestBody || op.parameters.some((p) => p.in === 'query'),
    );
    if (ops.length === 0) record.skip(undefined, 'no selected operation takes a body or a query');
    // A role-guarded write without path parameters acts on the whole service (a data reset,
    // say): it runs alone, after the others, so it cannot pull resources from under them.
    const global = (op: SpecOperation) =>
      Boolean(requiredRole(op)) &&
      op.method !== 'get' &&
      !op.parameters.some((p) => p.in === 'path');
    const probe = async (op: SpecOperation) => {
      const credential = credentialFor(ctx, op);
      if (typeof credential === 'object' && 'reason' in credential)
        return record.skip(op, credential.reason);
      const params = await pathParams(ctx, op);
      if ('reason' in params) return record.skip(op, params.reason);
      const calls = positiveCalls(ctx, op);
      if ('reason' in calls) return record.skip(op, calls.reason);
      const answers = await eachInOrder(ctx, calls, async (call) => ({
        call,
        exchange: await ctx.call(op, { ...call, path: params.parameters }, credential),
      }));
      if (ctx.stopped()) return;
      const sent = answers.filter((a) => a !== undefined);
      const statuses = sent.map((a) => a.exchange.response.status);
      const rejected = sent.filter((a) => rejectsAsInvalid(a.exchange));
      const first = rejected[0];
      if (first) {
        return record.fail(
          op,
          {
            message: `${rejected.length} of ${calls.length} valid request(s) rejected as invalid (${statusTally(rejected.map((r) => r.exchange.response.status))})`,
            expected: 'a success or a business answer (404, 409, 422 unknown reference)',
            actual: describeResponse(first.exchange),
          },
          first.exchange,
        );
      }
      // On an open operation (a login) a 401 or 403 is the answer to the data, not a gate.
      const gate = (status: number) =>
        needsCredentials(op) ? answeredBeforeData(status) : status === 429 || status >= 500;
      if (statuses.every(gate))
        return record.skip(
          op,
          `no answer judged the data: ${statusTally(statuses)} (credentials, resource or server decided first)`,
        );
      record.pass(op, `${calls.length} valid request(s) accepted (${statusTally(statuses)})`);
    };
    await ctx.each(
      costliestFirst(
        ops.filter((op) => !global(op)),
        ctx.auth.loginOperation?.operationId,
      ),
      probe,
    );
    for (const op of ops.filter(global)) if (!ctx.stopped()) await probe(op);
  },
};
