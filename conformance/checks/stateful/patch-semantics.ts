import type { SpecOperation } from '../../../spec/operations.js';
import type { OperationCall } from '../../http/build-request.js';
import type { Exchange } from '../../http/target-client.js';
import type { RunContext } from '../../run-context.js';
import type { CheckRecorder, ScenarioCheck } from '../check.js';
import { readBackEvidence } from '../support/read-back.js';
import { changeableProperty, writableProperties } from '../support/round-trip-body.js';
import { freshTarget } from '../support/spec-links.js';
import {
  callAs,
  describe,
  differences,
  documentedSuccesses,
  excerpt,
  flag,
  isDocumented,
  isObject,
  isSuccess,
  jsonBody,
  readerOf,
  requestSchema,
  responseSchema,
  volatileProperties,
  type Schema,
} from '../support/stateful-support.js';

/**
 * `patch_semantics`: what a JSON PATCH body means (RFC 7396, RFC 5789 2), on a resource made
 * for it: an empty body `{}` is accepted and changes nothing; `null` for a nullable property
 * clears it (read back null or absent); and a PATCH refused for one invalid property applies
 * none of the others (all or nothing). Read-only timestamps aside.
 */
export const patchSemantics: ScenarioCheck = {
  kind: 'scenario',
  name: 'patch_semantics',
  description:
    'PATCH {} changes nothing, null clears a nullable property, a refused PATCH applies nothing',
  async run(ctx, record) {
    const ops = ctx.operations.filter((op) => op.method === 'patch' && requestSchema(op));
    if (ops.length === 0) return record.skip(undefined, 'no PATCH operation with a JSON body');
    await ctx.each(ops, async (op) => {
      const reader = readerOf(ctx, op);
      if (!reader) return record.skip(op, `no GET operation on ${op.path} to read the resource`);
      const target = await freshTarget(ctx, op);
      if ('reason' in target) return record.skip(op, target.reason);
      const patcher = new Patcher(ctx, record, op, reader, target.call);
      (await patcher.empty()) && (await patcher.clear()) && (await patcher.atomic());
      patcher.done();
    });
  },
};

/** A read of the resource: its JSON object and the exchange. */
type Read = { body: Record<string, unknown>; exchange: Exchange };

class Patcher {
  private readonly said: string[] = [];
  private readonly stamps: Set<string>;

  constructor(
    private readonly ctx: RunContext,
    private readonly record: CheckRecorder,
    private readonly op: SpecOperation,
    private readonly reader: SpecOperation,
    private readonly call: OperationCall,
  ) {
    this.stamps = volatileProperties(responseSchema(reader, 200));
  }

  /** `{}`: a documented 2xx, and the representation as it was. */
  async empty(): Promise<boolean> {
    // A schema that refuses `{}` (minProperties, required) makes it a 400 (decision 0116).
    const schema = requestSchema(this.op);
    if ((schema?.minProperties ?? 0) > 0 || (schema?.required?.length ?? 0) > 0)
      return this.note('the request schema refuses an empty PATCH {}');
    const before = await this.read();
    if (!before) return false;
    const sent = await this.patch({});
    if (!isSuccess(sent.response.status) || !isDocumented(this.op, sent.response.status))
      return this.fail(sent, {
        message: 'an empty PATCH {} was not accepted',
        expected: `a documented 2xx (${documentedSuccesses(this.op).join(', ')}), nothing changed`,
      });
    const after = await this.unchangedRead(sent, before, 'an empty PATCH {}');
    if (!after) return false;
    if (!this.sameEntityTag(sent, before, after)) return false;
    return this.note(`{} ${sent.response.status}`);
  }

  /** `{ p: null }` for a nullable writable property: read back null or absent. */
  async clear(): Promise<boolean> {
    const nullable = Object.entries(writableProperties(requestSchema(this.op))).find(([, p]) =>
      flag(p, 'nullable'),
    );
    if (!nullable) return this.note('no nullable property to clear');
    const [name, schema] = nullable;
    const value = nonNull(this.ctx, schema);
    if (value === undefined) return this.note(`no value of ${name} to set before clearing it`);
    const set = await this.patch({ [name]: value });
    if (!isSuccess(set.response.status))
      return this.note(`setting ${name} before clearing it was refused (${describe(set)})`);
    const sent = await this.patch({ [name]: null });
    if (!isSuccess(sent.response.status))
      return this.fail(sent, {
        message: `PATCH {"${name}": null} was refused`,
        expected: `a documented 2xx, ${name} cleared (${name} is nullable)`,
      });
    const after = await this.read();
    if (!after) return false;
    const now = after.body[name];
    if (now !== null && now !== undefined)
      return this.fail(
        sent,
        {
          message: `PATCH {"${name}": null} did not clear ${name}`,
          expected: `${name}: null (or absent)`,
        },
        after.exchange,
      );
    return this.note(`{"${name}": null} cleared it`);
  }

  /** One valid change and one property of the wrong type: refused, and nothing applied. */
  async atomic(): Promise<boolean> {
    const before = await this.read();
    if (!before) return false;
    const change = changeableProperty(this.ctx, requestSchema(this.op), before.body);
    const writable = writableProperties(requestSchema(this.op));
    const other = Object.entries(writable).find(
      ([name, p]) => name !== change?.name && wrongType(p) !== undefined,
    );
    if (!change || !other) return this.note('no pair of a valid and an invalid property');
    const body = { [change.name]: change.value, [other[0]]: wrongType(other[1]) };
    const sent = await this.patch(body);
    if (isSuccess(sent.response.status))
      return this.note(
        `a body with ${other[0]} of the wrong type was accepted (negative checks judge that)`,
      );
    return this.unchanged(
      sent,
      before,
      `a PATCH refused with ${sent.response.status} (${other[0]} of the wrong type)`,
      `a refused PATCH applied nothing`,
    );
  }

  done(): void {
    if (this.said.length > 0) this.record.pass(this.op, this.said.join('; '));
  }

  /** Read back after `sent`: nothing changed but the stamps of the last change. */
  private async unchanged(
    sent: Exchange,
    before: { body: Record<string, unknown> },
    what: string,
    note: string,
  ): Promise<boolean> {
    const after = await this.unchangedRead(sent, before, what);
    return after !== undefined && this.note(note);
  }

  /** The read after `sent` when nothing changed but the stamps; undefined once failed. */
  private async unchangedRead(
    sent: Exchange,
    before: { body: Record<string, unknown> },
    what: string,
  ): Promise<Read | undefined> {
    const after = await this.read();
    if (!after) return undefined;
    const changed = differences(before.body, after.body, this.stamps);
    if (changed.length === 0) return after;
    this.fail(
      sent,
      { message: `${what} changed ${changed.join(', ')}`, expected: excerpt(before.body, changed) },
      after.exchange,
    );
    return undefined;
  }

  /**
   * An empty PATCH that wrote nothing at all (the stamps of the last change read back as they
   * were) leaves the entity tag as it was: a new tag says something was written. A target that
   * stamps an empty write (a new time) may give a new tag, and is not judged on it.
   */
  private sameEntityTag(sent: Exchange, before: Read, after: Read): boolean {
    if (differences(before.body, after.body, new Set()).length > 0) return true;
    const [was, now] = [before, after].map((r) => r.exchange.headers.get('etag') ?? undefined);
    if (was === undefined || now === undefined || was === now) return true;
    return this.fail(
      sent,
      {
        message: `an empty PATCH {} that wrote nothing changed the ETag from ${was} to ${now}`,
        expected: `ETag ${was}, as before (nothing was written)`,
      },
      after.exchange,
    );
  }

  private patch(body: unknown): Promise<Exchange> {
    return callAs(this.ctx, this.op, { ...this.call, body });
  }

  private async read(): Promise<Read | undefined> {
    const exchange = await this.ctx.call(this.reader, this.call);
    const body = jsonBody(exchange);
    if (exchange.response.status === 200 && isObject(body)) return { body, exchange };
    this.record.skip(this.op, `the resource could not be read: ${describe(exchange)}`);
    this.said.length = 0;
    return undefined;
  }

  private note(what: string): true {
    this.said.push(what);
    return true;
  }

  /** The PATCH is the failure's request; a read-back that showed the fault is its evidence. */
  private fail(
    exchange: Exchange,
    failure: { message: string; expected: string },
    readBack?: Exchange,
  ): false {
    const actual = readBack
      ? readBackEvidence(exchange, readBack)
      : `${describe(exchange)} ${exchange.response.body.slice(0, 300)}`;
    this.record.fail(this.op, { ...failure, actual }, exchange);
    this.said.length = 0;
    return false;
  }
}

/** A value of the wrong JSON type for a property with a plain type; undefined otherwise. */
function wrongType(schema: Schema): unknown {
  if (schema.type === 'integer' || schema.type === 'number' || schema.type === 'boolean')
    return 'not-a-value';
  if (schema.type === 'string') return 12345;
  return undefined;
}

function nonNull(ctx: RunContext, schema: Schema): unknown {
  for (let i = 0; i < 5; i++) {
    const value = ctx.generate.value(schema);
    if (value !== null && value !== undefined) return value;
  }
  return undefined;
}
