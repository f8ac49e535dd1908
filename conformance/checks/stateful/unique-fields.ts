import { uniqueFields, type UniqueFields } from '../../../spec/apikit-extensions.js';
import { needsCredentials } from '../../../spec/operation-security.js';
import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CreatedResource } from '../../stateful/fixtures.js';
import type { CheckRecorder, ScenarioCheck } from '../check.js';
import { readBackEvidence } from '../support/read-back.js';
import { validBody } from '../support/round-trip-body.js';
import { follow, linkCall, noLink, readLinks } from '../support/spec-links.js';
import {
  callAs,
  describe,
  differences,
  excerpt,
  isObject,
  isSuccess,
  jsonBody,
  requestSchema,
  responseSchema,
  roleCredential,
  volatileProperties,
} from '../support/stateful-support.js';

/** A resource the check made, with the body that made it and how to read it back. */
interface Made {
  resource: CreatedResource;
  body: Record<string, unknown>;
  /** Properties a read may show changed on its own (read-only timestamps, revisions). */
  volatile: Set<string>;
  read(): Promise<Exchange | undefined>;
}

/**
 * `unique_fields`: where a creating POST declares `x-apikit-unique`, a second resource with a
 * value of a unique field that the first one holds is refused with the declared conflict
 * status, in the same letter case and, when the rule is case-insensitive, in another; the
 * first resource stays as it was. A PATCH or PUT the producer links to that declares the same
 * field is refused too when it would give a second resource the first one's value (in another
 * letter case where that counts as the same).
 * Whatever is created is left to the fixtures' cleanup (the run adopts every 2xx answer).
 */
export const uniqueFieldsCheck: ScenarioCheck = {
  kind: 'scenario',
  name: 'unique_fields',
  description:
    'A create or update giving two resources the same value of a field declared unique (x-apikit-unique) is refused with the conflict status',
  async run(ctx, record) {
    const ops = ctx.operations.filter(
      (op) => op.method === 'post' && uniqueFields(op) && ctx.fixtures.isProducer(op),
    );
    if (ops.length === 0)
      return record.skip(undefined, 'no selected creating POST declares x-apikit-unique');
    await ctx.each(ops, async (op) => {
      const rule = uniqueFields(op) as UniqueFields;
      const who = roleCredential(ctx, op) === 'admin' ? 'admin' : 'user';
      if (needsCredentials(op) && !ctx.auth.has(who))
        return record.skip(op, `it needs credentials (${who}) and none were given`);
      const first = await make(ctx, op, 0);
      if ('reason' in first) return record.skip(op, first.reason);
      const fields = rule.fields.filter((f) => first.body[f] !== undefined);
      if (fields.length === 0)
        return record.skip(op, `a valid body sets none of ${rule.fields.join(', ')}`);
      const before = await first.read();
      let duplicate: Exchange | undefined;
      for (const field of fields) {
        for (const value of sameValues(first.body[field], rule.caseInsensitive)) {
          const body = { ...(validBody(ctx, op, 1) as object), [field]: value };
          const copy = (duplicate = await callAs(ctx, op, {
            path: first.resource.pathParameters,
            body,
          }));
          if (copy.response.status !== rule.conflictStatus)
            return refused(record, op, rule, `a second create with ${field} ${json(value)}`, copy);
        }
      }
      const after = await first.read();
      const changed =
        before && after ? differences(jsonBody(before), jsonBody(after), first.volatile) : [];
      if (before && after && duplicate && changed.length > 0)
        return record.fail(
          op,
          {
            message: `a refused duplicate changed the first resource: ${changed.join(', ')}`,
            expected: excerpt(jsonBody(before), changed),
            actual: readBackEvidence(duplicate, after, excerpt(jsonBody(after), changed)),
          },
          duplicate,
        );
      record.pass(
        op,
        `a second create with the same ${fields.join(', ')}${rule.caseInsensitive ? ' (as sent and in another letter case)' : ''} was refused`,
      );
      await judgeUpdates(ctx, record, op, first, fields);
    });
  },
};

/** PATCH and PUT operations the producer links to that keep one of the fields unique. */
async function judgeUpdates(
  ctx: RunContext,
  record: CheckRecorder,
  producer: SpecOperation,
  first: Made,
  fields: string[],
): Promise<void> {
  const updates = first.resource.links.filter(
    (l) => (l.target.method === 'patch' || l.target.method === 'put') && requestSchema(l.target),
  );
  let second: Made | { reason: string } | undefined;
  for (const { target } of updates) {
    const rule = uniqueFields(target);
    const field = fields.find((f) => rule?.fields.includes(f));
    if (!rule || !field) continue;
    second ??= await make(ctx, producer, 2);
    if ('reason' in second) return record.skip(target, second.reason);
    const link = second.resource.links.find((l) => l.target === target);
    const call = link
      ? linkCall(ctx, link)
      : noLink(
          ctx,
          second.resource,
          (l) => l.target === target,
          'no link of a new resource reaches it',
        );
    if ('reason' in call) return record.skip(target, call.reason);
    const [value] = sameValues(first.body[field], rule.caseInsensitive).slice(-1);
    const rest = target.method === 'put' ? (validBody(ctx, target, 3) as object) : {};
    const sent = await callAs(ctx, target, { ...call, body: { ...rest, [field]: value } });
    const what = `a ${target.method.toUpperCase()} of ${field} to ${json(value)}`;
    if (sent.response.status !== rule.conflictStatus)
      return refused(record, target, rule, what, sent);
    record.pass(target, `${what}, another resource's, was refused`, sent);
  }
}

/** A resource made with a valid body (fresh unique values), its parents first when needed. */
async function make(
  ctx: RunContext,
  op: SpecOperation,
  index: number,
): Promise<Made | { reason: string }> {
  let path: Record<string, unknown> = {};
  if (op.parameters.some((p) => p.in === 'path')) {
    const parent = await ctx.fixtures.paramsFor(op);
    if ('reason' in parent) return parent;
    path = parent.parameters;
  }
  const body = validBody(ctx, op, index);
  if (!isObject(body)) return { reason: 'its request body is not a JSON object' };
  const made = await callAs(ctx, op, { path, body });
  if (!isSuccess(made.response.status))
    return { reason: `a valid create was refused: ${describe(made)}` };
  const resource = ctx.fixtures.adopt(op, made, path, body);
  const reader = readLinks(resource)[0];
  return {
    resource,
    body,
    volatile: volatileProperties(reader && responseSchema(reader.target, 200)),
    read: async () => {
      if (!reader) return undefined;
      const read = await follow(ctx, reader);
      return 'reason' in read || read.response.status !== 200 ? undefined : read;
    },
  };
}

/** The value itself and, when letter case does not count, the same value in another case. */
function sameValues(value: unknown, caseInsensitive: boolean): unknown[] {
  if (!caseInsensitive || typeof value !== 'string') return [value];
  const other = value.toUpperCase() !== value ? value.toUpperCase() : value.toLowerCase();
  return other === value ? [value] : [value, other];
}

function refused(
  record: CheckRecorder,
  op: SpecOperation,
  rule: UniqueFields,
  what: string,
  exchange: Exchange,
): void {
  record.fail(
    op,
    {
      message: `${what}, a value another resource holds, was not refused`,
      expected: `${rule.conflictStatus} (x-apikit-unique${rule.caseInsensitive ? ', case-insensitive' : ''})`,
      actual: describe(exchange),
    },
    exchange,
  );
}

const json = (value: unknown) => JSON.stringify(value);
