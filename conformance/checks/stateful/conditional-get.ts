import type { SpecOperation } from '../../../spec/operations.js';
import type { Exchange } from '../../http/target-client.js';
import type { ScenarioCheck } from '../check.js';
import { readTargets } from '../support/read-targets.js';
import { describe, documentedHeader } from '../support/stateful-support.js';

/** One kind of conditional GET (RFC 9110 13.1): a validator and the precondition that uses it. */
export interface ConditionalGet {
  name: string;
  description: string;
  /** The response header that carries the validator: `ETag`, `Last-Modified`. */
  validator: string;
  /** The request header that presents it: `If-None-Match`, `If-Modified-Since`. */
  condition: string;
  /** Why a validator value cannot be judged (e.g. a date in the future), if it cannot. */
  unusable?(value: string): string | undefined;
  /** What else is wrong with the 304, beyond having a body. */
  check304?(answer: Exchange, value: string): string[];
  /** A precondition value that must not match, so the full 200 is due. */
  other(value: string): string;
}

/**
 * Builds the check: for each GET whose 200 documents the validator and which documents 304,
 * the precondition with the current value answers 304 without a body, and a non-matching one
 * the full 200. A value that changed between requests (someone wrote meanwhile) is retried
 * once, then skipped, so a busy target is not blamed for its own traffic.
 */
export function conditionalGetCheck(kind: ConditionalGet): ScenarioCheck {
  const header = kind.validator.toLowerCase();
  return {
    kind: 'scenario',
    name: kind.name,
    description: kind.description,
    async run(ctx, record) {
      const gets = ctx.operations.filter((op) => op.method === 'get');
      const ops = gets.filter((op) => documentedHeader(op, 200, kind.validator));
      for (const op of gets.filter((o) => !ops.includes(o)))
        record.skip(op, `its 200 documents no ${kind.validator}`);
      if (ops.length === 0)
        return record.skip(undefined, `no GET operation documents ${kind.validator} on 200`);
      const targets = await readTargets(ctx, ops);
      await ctx.each(targets, async ({ op, target }) => {
        if ('reason' in target) return record.skip(op, target.reason);
        if (op.responses['304'] === undefined) return record.skip(op, 'it documents no 304');
        const send = (value: string) =>
          ctx.call(op, {
            ...target.call,
            headers: { ...target.call.headers, [kind.condition]: value },
          });
        for (let attempt = 0; attempt < 2; attempt++) {
          const plain = await ctx.call(op, target.call);
          if (plain.response.status !== 200)
            return record.skip(op, `GET answered ${plain.response.status}, not 200`);
          const value = plain.headers.get(header);
          if (!value) return missingValidator(op, plain);
          const unusable = kind.unusable?.(value);
          if (unusable) return record.skip(op, unusable);
          const cond = await send(value);
          if (cond.response.status !== 304) {
            const again = await ctx.call(op, target.call);
            if (again.headers.get(header) !== value) continue; // changed meanwhile: try again
            return record.fail(
              op,
              {
                message: `${kind.condition} with the current ${kind.validator} did not answer 304`,
                expected: `304 for ${kind.condition}: ${value}`,
                actual: describe(cond),
              },
              cond,
            );
          }
          const problems = [
            ...(cond.response.body !== '' ? ['it has a body'] : []),
            ...(kind.check304?.(cond, value) ?? []),
          ];
          if (problems.length > 0) {
            return record.fail(
              op,
              {
                message: `the 304 is wrong: ${problems.join('; ')}`,
                expected: `304 without a body${kind.validator === 'ETag' ? `, with ETag ${value}` : ''}`,
                actual: `${describe(cond)}, ${kind.validator} ${cond.headers.get(header) ?? '(none)'}, body ${cond.response.body.length} bytes`,
              },
              cond,
            );
          }
          const otherValue = kind.other(value);
          const full = await send(otherValue);
          if (full.response.status !== 200 || full.response.body === '') {
            return record.fail(
              op,
              {
                message: `${kind.condition} that does not match did not answer the full 200`,
                expected: `200 with the representation for ${kind.condition}: ${otherValue}`,
                actual: describe(full),
              },
              full,
            );
          }
          return record.pass(op, `304 for ${value}, 200 for ${otherValue}`, cond);
        }
        record.skip(
          op,
          `the ${kind.validator} changed between requests, so the condition could not be judged`,
        );
      });

      function missingValidator(op: SpecOperation, plain: Exchange): void {
        if (documentedHeader(op, 200, kind.validator)?.required) {
          record.fail(
            op,
            {
              message: `the 200 carries no ${kind.validator}`,
              expected: `a ${kind.validator} header`,
              actual: 'none',
            },
            plain,
          );
        } else record.skip(op, `this 200 carries no ${kind.validator} (documented as optional)`);
      }
    },
  };
}
