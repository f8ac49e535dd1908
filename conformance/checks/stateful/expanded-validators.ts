import { isDeepStrictEqual } from 'node:util';
import type { ScenarioCheck } from '../check.js';
import { readTargets } from '../support/read-targets.js';
import {
  describe,
  documentedHeader,
  itemSchema,
  jsonBody,
  properties,
  responseSchema,
  type Schema,
} from '../support/stateful-support.js';

/**
 * `expanded_validators`: a GET whose array query parameter names properties of its answer to
 * embed (`expand=user,items`) gives another representation when they are embedded; where its
 * 200 documents ETag, the expanded one carries its own strong ETag (RFC 9110 8.8.3: a strong
 * validator is unique across all representations of a resource), and its Last-Modified is not
 * older than the plain one's (RFC 9110 8.8.2: the embedded parts are part of it).
 */
export const expandedValidators: ScenarioCheck = {
  kind: 'scenario',
  name: 'expanded_validators',
  description:
    'An expanded representation carries its own strong ETag and a Last-Modified no older than the plain one',
  async run(ctx, record) {
    const candidates = ctx.operations
      .filter((op) => op.method === 'get' && documentedHeader(op, 200, 'ETag'))
      .map((op) => {
        const props = properties(responseSchema(op, 200));
        const param = op.parameters.find((p) => {
          const schema = p.schema as Schema | undefined;
          const names = (schema?.type === 'array' ? itemSchema(schema)?.enum : undefined) ?? [];
          return p.in === 'query' && names.length > 0 && names.every((n) => props[String(n)]);
        });
        return param ? { op, param } : undefined;
      })
      .filter((c) => c !== undefined);
    if (candidates.length === 0)
      return record.skip(undefined, 'no GET documenting ETag has an expansion parameter');
    const targets = await readTargets(
      ctx,
      candidates.map((c) => c.op),
    );
    for (const [i, { op, target }] of targets.entries()) {
      if ('reason' in target) {
        record.skip(op, target.reason);
        continue;
      }
      const param = candidates[i]!.param;
      const names = itemSchema(param.schema as Schema)!.enum!.map(String);
      const get = (expand: string[] | undefined) =>
        ctx.call(op, { ...target.call, query: { ...target.call.query, [param.name]: expand } });
      const plain = await get(undefined);
      const expanded = await get(names);
      if (plain.response.status !== 200 || expanded.response.status !== 200) {
        record.skip(op, `GET answered ${plain.response.status} and ${expanded.response.status}`);
        continue;
      }
      if (isDeepStrictEqual(jsonBody(plain), jsonBody(expanded))) {
        record.skip(op, `${param.name}=${names.join(',')} embedded nothing that was not there`);
        continue;
      }
      const tags = [plain.headers.get('etag'), expanded.headers.get('etag')];
      const dates = [plain.headers.get('last-modified'), expanded.headers.get('last-modified')];
      const problems: string[] = [];
      if (tags[0] && tags[1] && !tags[0].startsWith('W/') && tags[0] === tags[1])
        problems.push(`both carry the strong ETag ${tags[0]}`);
      const [plainTime, expandedTime] = dates.map((d) => (d ? Date.parse(d) : NaN));
      if (plainTime! > expandedTime!)
        problems.push(`the expanded Last-Modified ${dates[1]} is older than the plain ${dates[0]}`);
      if (problems.length > 0) {
        record.fail(
          op,
          {
            message: `the expanded representation's validators are wrong: ${problems.join('; ')}`,
            expected: `an ETag other than ${tags[0] ?? '(none)'}, Last-Modified not before ${dates[0] ?? '(none)'}`,
            actual: `${describe(expanded)}, ETag ${tags[1] ?? '(none)'}, Last-Modified ${dates[1] ?? '(none)'}`,
          },
          expanded,
        );
        continue;
      }
      record.pass(op, `plain ${tags[0]}, expanded ${tags[1]}`, expanded);
    }
  },
};
