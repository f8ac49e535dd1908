import type { OpenAPIV3 } from 'openapi-types';
import { declaredHttp, type DeclaredHttp } from '../../../spec/apikit-extensions.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CheckFailure, ScenarioCheck } from '../check.js';
import { credentialFor, parseJson, pathParams, validCall } from '../support/probe-support.js';
import { refusalFaults, type KnownViolations } from '../support/refusal-entries.js';

type Limit = NonNullable<DeclaredHttp['errorsLimit']>;

/** The most unknown properties sent at once: about 50 KiB, half the common body limit. */
const MAX_SENT = 2500;
/**
 * An answer may be no larger than the request that provoked it: the bound exists so that a
 * client cannot make the server write more than it sent (decision 0106).
 */
const MAX_RATIO = 1;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const bytes = (text: string | undefined) => Buffer.byteLength(text ?? '');
const codePoints = (text: string) => Array.from(text).length;

/** An operation whose JSON body is an object refusing unknown properties, and documents 400. */
function refusesUnknown(op: SpecOperation): boolean {
  const schema = op.requestBody?.content?.['application/json']?.schema as
    OpenAPIV3.SchemaObject | undefined;
  return (
    '400' in op.responses && schema?.type === 'object' && schema.additionalProperties === false
  );
}

/** Unknown property names no schema has: `apikit-unknown-0042`. */
const unknownName = (i: number) => `apikit-unknown-${String(i).padStart(4, '0')}`;

/**
 * What the probe of `count` unknown properties breaks: each of them, and nothing else; over
 * the bound only some are listed (faultsOf counts them), but every entry names one of them.
 */
function unknownOnes(what: string, count: number): KnownViolations {
  const places = Array.from({ length: count }, (_, i) => `#/${unknownName(i)}`);
  return { what, pointers: [], someOf: places, only: true };
}

/**
 * The first entry naming an unknown property sent after the first `n` of them, where the 400
 * lists `n` such entries: a bounded list holds the first violations found, and the probe's
 * names are sent (and sort) in the order of their numbers.
 */
function laterThanFirst(errors: unknown[]): string | undefined {
  const numbers = errors.flatMap((e) => {
    const match =
      isObject(e) && typeof e.pointer === 'string'
        ? /^#\/apikit-unknown-(\d{4})$/.exec(e.pointer)
        : null;
    return match ? [Number(match[1])] : [];
  });
  const later = numbers.find((i) => i >= numbers.length);
  return later === undefined ? undefined : unknownName(later);
}

/** What is wrong with a 400 to a body breaking `sent` constraints. */
function faultsOf(exchange: Exchange, limit: Limit, sent: number): CheckFailure[] {
  const faults: CheckFailure[] = [];
  const body = parseJson(exchange.response.body);
  const errors = isObject(body) && Array.isArray(body.errors) ? body.errors : [];
  const omitted = isObject(body) ? body[limit.omittedCount] : undefined;
  const counted = errors.length + (typeof omitted === 'number' ? omitted : 0);
  if (errors.length > limit.maxItems)
    faults.push({
      message: `the 400 lists ${errors.length} entries in errors, over the declared ${limit.maxItems}`,
      expected: `at most ${limit.maxItems} entries, the rest counted in ${limit.omittedCount}`,
      actual: `${errors.length} entries`,
    });
  else if (counted < sent)
    faults.push({
      message: `the 400 accounts for ${counted} of the ${sent} violations sent`,
      expected: `errors plus ${limit.omittedCount} counting at least ${sent}`,
      actual: `${errors.length} entries, ${limit.omittedCount}: ${JSON.stringify(omitted)}`,
    });
  const later = laterThanFirst(errors);
  if (later !== undefined)
    faults.push({
      message: `the 400 lists ${later}, not only the first violations of the body`,
      expected: `the first ${errors.length} unknown properties, in the order sent`,
      actual: `${later} among ${errors.length} entries`,
    });
  const texts = errors.flatMap((e: unknown) =>
    isObject(e) ? [e.pointer, e.detail].filter((t): t is string => typeof t === 'string') : [],
  );
  const longest = Math.max(0, ...texts.map(codePoints));
  if (longest > limit.maxLength)
    faults.push({
      message: `an entry of errors runs over the declared ${limit.maxLength} characters`,
      expected: `every pointer and detail at most ${limit.maxLength} characters`,
      actual: `a text of ${longest} characters`,
    });
  const ratio = bytes(exchange.response.body) / Math.max(1, bytes(exchange.request.body));
  if (ratio > MAX_RATIO)
    faults.push({
      message: `the 400 is ${ratio.toFixed(1)} times the size of the request that provoked it`,
      expected: `an answer of at most ${bytes(exchange.request.body)} bytes (the request's size)`,
      actual: `${bytes(exchange.response.body)} bytes`,
    });
  return faults;
}

/**
 * The probes: many unknown properties (left out when the bound is too high to pass in a body
 * of sane size), and one unknown property whose name is ten times the text bound.
 */
function probes(valid: Record<string, unknown>, limit: Limit) {
  const count = Math.min(limit.maxItems * 10, MAX_SENT);
  const many = { ...valid };
  for (let i = 0; i < count; i++) many[unknownName(i)] = 0;
  const longName = `apikit-unknown-${'x'.repeat(limit.maxLength * 10)}`;
  const manyWhat = `a body with ${count} unknown properties`;
  const longWhat = 'a body with one unknown property of a long name';
  return [
    ...(count > limit.maxItems
      ? [{ what: manyWhat, body: many, sent: count, known: unknownOnes(manyWhat, count) }]
      : []),
    {
      what: longWhat,
      body: { ...valid, [longName]: 0 },
      sent: 1,
      known: { what: longWhat, pointers: [`#/${longName}`], only: true },
    },
  ];
}

async function judge(ctx: RunContext, op: SpecOperation, limit: Limit) {
  const credential = credentialFor(ctx, op);
  if (typeof credential === 'object' && 'reason' in credential) return credential;
  const params = await pathParams(ctx, op, { shared: true });
  if ('reason' in params) return params;
  const call = validCall(ctx, op, params);
  if (!isObject(call.body)) return { reason: 'no valid object body could be made' };
  const verdicts: { what: string; exchange: Exchange; faults: CheckFailure[] }[] = [];
  for (const probe of probes(call.body, limit)) {
    if (ctx.stopped()) break;
    const exchange = await ctx.call(op, { ...call, body: probe.body }, credential);
    // A 2xx fails (the probe breaks the spec); negative_data_rejection judges another status
    // other than 400; only a 400 has errors to bound, each naming an unknown property sent.
    const refused = refusalFaults(ctx.spec, exchange, probe.known);
    if (exchange.response.status !== 400) {
      if (refused.length) verdicts.push({ what: probe.what, exchange, faults: refused });
      continue;
    }
    const faults = [...faultsOf(exchange, limit, probe.sent), ...refused];
    verdicts.push({ what: probe.what, exchange, faults });
  }
  return verdicts;
}

/**
 * bounded_errors, where the spec declares `x-apikit-http.errorsLimit`: a 400 lists at most
 * `maxItems` entries and counts the violations left out in its `omittedCount` property, no
 * entry's pointer or detail runs over `maxLength` characters, and the answer is no larger than
 * the request. On the first selected operation whose JSON body refuses unknown properties: a
 * valid body with ten times `maxItems` unknown properties, then one with a single unknown
 * property whose name is ten times `maxLength` (decision 0106). Either answered 2xx fails, and
 * every entry names one of the unknown properties sent (decision 0126).
 */
export const boundedErrors: ScenarioCheck = {
  kind: 'scenario',
  name: 'bounded_errors',
  description:
    'A 400 lists at most the declared number of violations and is no larger than its request',
  async run(ctx, record) {
    const limit = declaredHttp(ctx.spec).errorsLimit;
    if (!limit)
      return record.skip(undefined, 'the spec does not declare x-apikit-http.errorsLimit');
    const op = ctx.operations.find(refusesUnknown);
    if (!op)
      return record.skip(
        undefined,
        'no selected operation has a JSON body refusing unknown properties',
      );
    const verdicts = await judge(ctx, op, limit);
    if ('reason' in verdicts) return record.skip(op, verdicts.reason);
    const failed = verdicts.find((v) => v.faults.length > 0);
    if (failed)
      for (const fault of failed.faults)
        record.fail(op, { ...fault, message: `${failed.what}: ${fault.message}` }, failed.exchange);
    else if (verdicts.length === 0) record.skip(op, 'no probe was answered 400');
    else
      record.pass(
        op,
        `${verdicts.length} 400 answer(s) within ${limit.maxItems} entries of at most ${limit.maxLength} characters, none larger than its request`,
      );
  },
};
