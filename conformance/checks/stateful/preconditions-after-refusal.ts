import type { SpecOperation } from '../../../spec/operations.js';
import type { Credential } from '../../auth-session.js';
import type { OperationCall } from '../../http/build-request.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { ScenarioCheck } from '../check.js';
import { jwtClaims } from '../support/bad-credentials.js';
import { validBody, roundTripBody, writableProperties } from '../support/round-trip-body.js';
import { deleteLinkOf, follow, freshTarget } from '../support/spec-links.js';
import {
  describe,
  isObject,
  isSuccess,
  jsonBody,
  parameter,
  readerOf,
  requestSchema,
  roleCredential,
  type Schema,
} from '../support/stateful-support.js';

const NO_SUCH_ETAG = '"apikit-conformance-no-such-etag"';

/** A request the target may refuse without preconditions, and whom it is sent as. */
interface Candidate {
  label: string;
  call: OperationCall;
  credential: Credential | undefined;
}

type Unavailable = { reason: string };

/**
 * `preconditions_after_refusal`: a request the target refuses with 403 or 404 without
 * preconditions keeps that answer with a failing `If-Match`, never 412 (RFC 9110 13.2.1: a
 * server ignores preconditions when the answer without them would be other than 2xx or 412).
 * The refused requests are harmless: the user changing the admin's own resource (named by the
 * admin token's subject) to the values it already holds, and PATCH or DELETE of a resource
 * the run created and deleted.
 */
export const preconditionsAfterRefusal: ScenarioCheck = {
  kind: 'scenario',
  name: 'preconditions_after_refusal',
  description:
    'a write refused with 403 or 404 keeps that status with a failing If-Match (no 412 first)',
  async run(ctx, record) {
    const ops = ctx.operations.filter(
      (op) =>
        ['put', 'patch', 'delete'].includes(op.method) &&
        (op.responses['412'] !== undefined || parameter(op, 'header', 'If-Match') !== undefined),
    );
    if (ops.length === 0)
      return record.skip(undefined, 'no selected PUT, PATCH or DELETE takes If-Match');
    await ctx.each(ops, async (op) => {
      const reasons: string[] = [];
      const judged: string[] = [];
      for (const make of [othersResource, absentResource]) {
        if (ctx.stopped()) return;
        const candidate = await make(ctx, op);
        if ('reason' in candidate) {
          reasons.push(candidate.reason);
          continue;
        }
        const plain = await ctx.call(op, candidate.call, candidate.credential);
        const status = plain.response.status;
        if (status !== 403 && status !== 404) {
          reasons.push(`${candidate.label} was not refused: ${describe(plain)}`);
          continue;
        }
        const headers = { ...candidate.call.headers, 'If-Match': NO_SUCH_ETAG };
        const conditional = await ctx.call(
          op,
          { ...candidate.call, headers },
          candidate.credential,
        );
        const answered = conditional.response.status;
        if (answered === 429 || answered >= 500) {
          reasons.push(`${candidate.label} with If-Match was answered ${answered}`);
          continue;
        }
        if (answered !== status)
          return record.fail(
            op,
            {
              message: `${candidate.label} is refused with ${status}, but with a failing If-Match it was answered ${answered}`,
              expected: `${status} for If-Match: ${NO_SUCH_ETAG}, as without it (RFC 9110 13.2.1: preconditions are not judged for a request that would be refused anyway)`,
              actual: describe(conditional),
            },
            conditional,
          );
        judged.push(`${status} for ${candidate.label}`);
      }
      if (judged.length > 0)
        return record.pass(op, `${judged.join('; ')}: the same with a failing If-Match`);
      record.skip(op, `no request refused with 403 or 404 could be built (${reasons.join('; ')})`);
    });
  },
};

/**
 * The user changing the admin's own resource, named by the admin token's `sub`, to the values
 * it already holds (PUT and PATCH only: a DELETE the target wrongly let through would delete
 * the account the run signs in with).
 */
async function othersResource(
  ctx: RunContext,
  op: SpecOperation,
): Promise<Candidate | Unavailable> {
  const label = "the user's change of the admin's own resource";
  if (op.method === 'delete')
    return { reason: `${label} is not sent as a DELETE without preconditions` };
  if (!ctx.auth.has('user') || !ctx.auth.has('admin'))
    return { reason: `${label} needs user and admin credentials` };
  const path = op.parameters.filter((p) => p.in === 'path');
  if (path.length !== 1) return { reason: `${label} needs one path parameter` };
  const user = jwtClaims(await ctx.auth.accessToken('user'))?.sub;
  const admin = jwtClaims(await ctx.auth.accessToken('admin'))?.sub;
  if (typeof admin !== 'string' || admin === user)
    return { reason: `the admin's token names no subject of its own` };
  const integer = ['integer', 'number'].includes(String((path[0]!.schema as Schema)?.type));
  if (integer && !/^\d+$/.test(admin)) return { reason: `the admin's subject is not an id` };
  const values = { [path[0]!.name]: integer ? Number(admin) : admin };
  const reader = readerOf(ctx, op);
  if (!reader) return { reason: `no GET on ${op.path} reads the current values` };
  const current = await ctx.call(reader, { path: values }, 'admin');
  if (current.response.status !== 200 || !isObject(jsonBody(current)))
    return { reason: `the admin's resource could not be read: ${describe(current)}` };
  const body = sameValues(ctx, op, jsonBody(current));
  if (body === undefined) return { reason: `no body repeating the current values was found` };
  return { label, call: { path: values, body }, credential: 'user' };
}

/** A body that sets what the resource already holds: the round trip for PUT, one field for PATCH. */
function sameValues(ctx: RunContext, op: SpecOperation, current: unknown): unknown {
  const schema = requestSchema(op);
  if (!schema || !isObject(current)) return undefined;
  if (op.method === 'put') return roundTripBody(ctx, schema, current, false);
  const name = Object.keys(writableProperties(schema)).find(
    (key) => current[key] !== undefined && current[key] !== null,
  );
  return name === undefined ? undefined : { [name]: current[name] };
}

/** PATCH or DELETE of a resource the run created and deleted (a PUT there may create it). */
async function absentResource(
  ctx: RunContext,
  op: SpecOperation,
): Promise<Candidate | Unavailable> {
  const label = 'a resource that was deleted';
  if (op.method === 'put') return { reason: `a PUT at an absent resource may create it` };
  const target = await freshTarget(ctx, op);
  if ('reason' in target) return target;
  const link = deleteLinkOf(target.resource);
  if (!link) return { reason: `the resource made for ${op.operationId} has no DELETE link` };
  const deleted: Exchange | Unavailable = await follow(ctx, link);
  if ('reason' in deleted) return deleted;
  if (!isSuccess(deleted.response.status))
    return { reason: `the resource could not be deleted: ${describe(deleted)}` };
  target.resource.deleted = true;
  const body = op.requestBody ? validBody(ctx, op) : undefined;
  const call = { ...target.call, ...(body !== undefined ? { body } : {}) };
  return { label, call, credential: roleCredential(ctx, op) };
}
