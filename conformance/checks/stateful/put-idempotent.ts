import { isDeepStrictEqual } from 'node:util';
import type { SpecOperation } from '../../../spec/operations.js';
import type { OperationCall } from '../../http/build-request.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { Unavailable } from '../../stateful/fixtures.js';
import type { CheckFailure, ScenarioCheck } from '../check.js';
import { freshTarget } from '../support/spec-links.js';
import { requiredOnly, roundTripBody } from '../support/round-trip-body.js';
import { readBackEvidence } from '../support/read-back.js';
import {
  callAs,
  describe,
  differences,
  excerpt,
  isObject,
  isSuccess,
  jsonBody,
  properties,
  readerOf,
  requestSchema,
  responseSchema,
  volatileProperties,
  type Schema,
} from '../support/stateful-support.js';

/**
 * `put_idempotent`: PUT replaces (RFC 9110 9.3.4). The same body twice gives the same status
 * family and representation (read-only timestamps aside), and optional properties a later
 * body leaves out are reset (absent, null, their default or empty) rather than kept.
 */
export const putIdempotent: ScenarioCheck = {
  kind: 'scenario',
  name: 'put_idempotent',
  description:
    'The same PUT twice answers the same status family and representation; properties a PUT leaves out are reset',
  async run(ctx, record) {
    const ops = ctx.operations.filter((op) => op.method === 'put' && requestSchema(op));
    if (ops.length === 0) {
      record.skip(undefined, 'no PUT operation with a JSON body is selected');
      return;
    }
    await ctx.each(ops, async (op) => {
      const reader = readerOf(ctx, op);
      const target = await freshTarget(ctx, op);
      if ('reason' in target) return record.skip(op, target.reason);
      const read = reader ? () => ctx.call(reader, target.call) : undefined;
      const initial = read ? await read() : undefined;
      const full = roundTripBody(ctx, requestSchema(op), initial && jsonBody(initial), true);
      const first = await callAs(ctx, op, { ...target.call, body: full });
      if (!isSuccess(first.response.status))
        return record.skip(
          op,
          `a valid full body was refused, so nothing to compare: ${describe(first)}`,
        );
      const afterFirst = read ? await read() : undefined;
      const second = await callAs(ctx, op, { ...target.call, body: full });
      const afterSecond = read ? await read() : undefined;
      const failure = compareRepeats(op, reader, first, second, afterFirst, afterSecond);
      if (failure) return record.fail(op, failure, second);
      if (!read || !reader || !afterSecond) {
        return record.pass(
          op,
          'the same PUT twice gave the same answer (no GET to read back)',
          second,
        );
      }
      const reset = await judgeReset(ctx, op, target.call, read, full, afterSecond);
      if ('reason' in reset) return record.skip(op, reset.reason);
      if (reset.kept.length > 0)
        return record.fail(
          op,
          {
            message: `properties left out of the PUT body kept their values: ${reset.kept.join(', ')}`,
            expected: `${reset.kept.join(', ')} absent, null or default after PUT ${JSON.stringify(reset.partial)}`,
            actual: readBackEvidence(
              reset.cause,
              reset.evidence,
              excerpt(jsonBody(reset.evidence), reset.kept),
            ),
          },
          reset.cause,
        );
      record.pass(
        op,
        `the same PUT twice gave the same representation; ${reset.judged.length ? `left-out ${reset.judged.join(', ')} reset` : 'no left-out property was visible in a GET to judge its reset'}`,
        reset.evidence,
      );
    });
  },
};

interface Reset {
  partial: Record<string, unknown>;
  /** Left-out properties a GET showed with a value before the reduced PUT. */
  judged: string[];
  /** Those that kept their value (in two rounds with different values). */
  kept: string[];
  /** The reduced PUT last sent, and the GET after it. */
  cause: Exchange;
  evidence: Exchange;
}

/**
 * PUT with only the required properties, then GET: a left-out property must not keep the
 * value it had. A value that stays might be the server's own default that happens to equal
 * what was sent, so a property is only found kept when it also keeps a second, different
 * value sent in a second round.
 */
async function judgeReset(
  ctx: RunContext,
  op: SpecOperation,
  call: OperationCall,
  read: () => Promise<Exchange>,
  full: Record<string, unknown>,
  shown: Exchange,
): Promise<Reset | Unavailable> {
  const schema = requestSchema(op);
  const partial = requiredOnly(schema, full);
  const left = Object.keys(full).filter((k) => !(k in partial));
  const reduce = async (): Promise<{ cause: Exchange; evidence: Exchange } | Unavailable> => {
    const res = await callAs(ctx, op, { ...call, body: partial });
    return isSuccess(res.response.status)
      ? { cause: res, evidence: await read() }
      : { reason: `a body with only the required properties was refused: ${describe(res)}` };
  };
  const afterReduced = await reduce();
  if ('reason' in afterReduced) return afterReduced;
  const first = resetCheck(left, shown, afterReduced.evidence);
  if (first.kept.length === 0) return { partial, ...first, ...afterReduced };
  const props = properties(schema);
  const second: Record<string, unknown> = { ...full };
  for (const name of first.kept) {
    const other = otherValue(ctx, props[name], full[name]);
    if (other === undefined)
      return { reason: `no second value for ${name} to tell a kept value from a default` };
    second[name] = other;
  }
  const resent = await callAs(ctx, op, { ...call, body: second });
  if (!isSuccess(resent.response.status))
    return { reason: `a second full body was refused: ${describe(resent)}` };
  const shownAgain = await read();
  const again = await reduce();
  if ('reason' in again) return again;
  const kept = resetCheck(first.kept, shownAgain, again.evidence).kept;
  return { partial, judged: first.judged, kept, ...again };
}

function otherValue(ctx: RunContext, schema: Schema | undefined, current: unknown): unknown {
  if (!schema) return undefined;
  for (let i = 0; i < 10; i++) {
    const value = ctx.generate.value(schema);
    if (value !== null && value !== undefined && !isDeepStrictEqual(value, current)) return value;
  }
  return undefined;
}

function compareRepeats(
  op: SpecOperation,
  reader: SpecOperation | undefined,
  first: Exchange,
  second: Exchange,
  afterFirst: Exchange | undefined,
  afterSecond: Exchange | undefined,
): CheckFailure | undefined {
  const family = (e: Exchange) => Math.floor(e.response.status / 100);
  if (family(first) !== family(second))
    return {
      message: 'the same PUT twice answered different status families',
      expected: `${first.response.status} again`,
      actual: describe(second),
    };
  const ignoredPut = volatileProperties(responseSchema(op, second.response.status));
  const putDiff = differences(jsonBody(first), jsonBody(second), ignoredPut);
  if (putDiff.length > 0 && (first.response.body || second.response.body))
    return {
      message: `the same PUT twice answered different representations: ${putDiff.join(', ')}`,
      expected: excerpt(jsonBody(first), putDiff),
      actual: excerpt(jsonBody(second), putDiff),
    };
  if (reader && afterFirst && afterSecond) {
    const ignored = volatileProperties(responseSchema(reader, 200));
    const diff = differences(jsonBody(afterFirst), jsonBody(afterSecond), ignored);
    if (diff.length > 0)
      return {
        message: `repeating the PUT changed the resource: ${diff.join(', ')}`,
        expected: excerpt(jsonBody(afterFirst), diff),
        actual: excerpt(jsonBody(afterSecond), diff),
      };
  }
  return undefined;
}

/**
 * Of the left-out properties, those a GET showed with a value (judged), and those that still
 * hold that value after the reduced PUT (kept: not reset).
 */
function resetCheck(
  left: string[],
  before: Exchange,
  after: Exchange,
): { judged: string[]; kept: string[] } {
  const [was, now] = [jsonBody(before), jsonBody(after)];
  if (!isObject(was) || !isObject(now)) return { judged: [], kept: [] };
  const isReset = (_name: string, value: unknown) =>
    value === undefined || value === null || (Array.isArray(value) && value.length === 0);
  const judged = left.filter((name) => !isReset(name, was[name]));
  const kept = judged.filter(
    (name) => !isReset(name, now[name]) && JSON.stringify(now[name]) === JSON.stringify(was[name]),
  );
  return { judged, kept };
}
