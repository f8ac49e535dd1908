import { declaredValidation } from '../../../spec/apikit-extensions.js';
import { buildRequest } from '../../http/build-request.js';
import type { Exchange } from '../../http/target-client.js';
import type { ScenarioCheck } from '../check.js';
import { embeddedDisagreements } from '../support/embedded-agreement.js';
import { readTargets } from '../support/read-targets.js';
import {
  describe,
  isObject,
  itemSchema,
  jsonBody,
  properties,
  responseSchema,
  type Schema,
} from '../support/stateful-support.js';

/**
 * `expand_honoured`: a GET with an array query parameter whose enum names properties of its
 * answer (`expand=user,items`) embeds each named property when asked, and leaves the
 * expandable properties out when not asked for. Where the description declares
 * `x-apikit-validation.commaSeparatedArraysRepeatable`, the names sent repeated
 * (`expand=user&expand=items`) embed them all and a name given twice is no error (0102).
 * Its reads change nothing, so every answer embedding a name embeds the same thing: a list as
 * the same items, each once (decision 0124: one item dropped or doubled when named with others).
 */
export const expandHonoured: ScenarioCheck = {
  kind: 'scenario',
  name: 'expand_honoured',
  description:
    'Each expansion named in an array query parameter embeds that property; without it, the property is absent',
  async run(ctx, record) {
    const candidates = ctx.operations
      .filter((op) => op.method === 'get')
      .map((op) => {
        const props = properties(responseSchema(op, 200));
        const param = op.parameters.find((p) => {
          const schema = p.schema as Schema | undefined;
          const names = (schema?.type === 'array' ? itemSchema(schema)?.enum : undefined) ?? [];
          return p.in === 'query' && names.length > 0 && names.every((n) => props[String(n)]);
        });
        return { op, param };
      })
      .filter((c) => c.param !== undefined);
    if (candidates.length === 0) {
      record.skip(undefined, 'no GET has an array query parameter naming properties of its answer');
      return;
    }
    const targets = await readTargets(
      ctx,
      candidates.map((c) => c.op),
    );
    for (const [i, { op, target }] of targets.entries()) {
      if ('reason' in target) {
        record.skip(op, target.reason);
        continue;
      }
      const param = candidates[i]!.param!;
      const names = itemSchema(param.schema as Schema)!.enum!.map(String);
      const get = (expand: string[] | undefined, extraQuery?: string) => {
        const call = { ...target.call, query: { ...target.call.query, [param.name]: expand } };
        if (extraQuery === undefined) return ctx.call(op, call);
        const query = buildRequest(op, call).path.split('?')[1];
        return ctx.call(op, { ...call, rawQuery: query ? `${query}&${extraQuery}` : extraQuery });
      };
      const plain = await get(undefined);
      if (plain.response.status !== 200) {
        record.skip(op, `GET answered ${plain.response.status}, not 200`);
        continue;
      }
      const present = embedded;
      const problems: { message: string; res: typeof plain }[] = [];
      const unasked = names.filter((n) => present(jsonBody(plain), n));
      if (unasked.length)
        problems.push({
          message: `without ${param.name}, ${unasked.join(', ')} came embedded`,
          res: plain,
        });
      const answers = [plain];
      for (const name of names) {
        const res = await get([name]);
        answers.push(res);
        const body = jsonBody(res);
        if (res.response.status !== 200) {
          problems.push({ message: `${param.name}=${name} answered ${res.response.status}`, res });
          continue;
        }
        if (!present(body, name))
          problems.push({ message: `${param.name}=${name} did not embed ${name}`, res });
        const extra = names.filter((n) => n !== name && present(body, n));
        if (extra.length)
          problems.push({
            message: `${param.name}=${name} also embedded ${extra.join(', ')}`,
            res,
          });
      }
      if (declaredValidation(ctx.spec).commaSeparatedArraysRepeatable && param.explode === false)
        problems.push(
          ...(await bothForms(names, param.name, async (rawQuery) => {
            const res = await get(undefined, rawQuery);
            answers.push(res);
            return res;
          })),
        );
      // One more read naming them all: each embeds what it embeds when named alone (decision 0124).
      if (names.length > 1) answers.push(await get(names));
      problems.push(...embeddedDisagreements(answers, names));
      const first = problems[0];
      if (!first) record.pass(op, `${param.name} honoured for ${names.join(', ')}`, plain);
      else
        record.fail(
          op,
          {
            message: problems.map((p) => p.message).join('; '),
            expected: `each of ${names.join(', ')} present exactly when named in ${param.name}`,
            actual: `${describe(first.res)} ${first.res.response.body.slice(0, 300)}`,
          },
          first.res,
        );
    }
  },
};

const embedded = (body: unknown, name: string) => isObject(body) && body[name] !== undefined;

/** The repeated form and a name given twice, each answered as the comma-separated form. */
async function bothForms(
  names: string[],
  param: string,
  send: (rawQuery: string) => Promise<Exchange>,
): Promise<{ message: string; res: Exchange }[]> {
  const problems: { message: string; res: Exchange }[] = [];
  const forms = [
    { query: names.map((n) => `${param}=${encodeURIComponent(n)}`).join('&'), wants: names },
    {
      query: `${param}=${encodeURIComponent(names[0]!)},${encodeURIComponent(names[0]!)}`,
      wants: [names[0]!],
    },
  ];
  for (const { query, wants } of forms) {
    const res = await send(query);
    if (res.response.status !== 200) {
      problems.push({ message: `${query} answered ${res.response.status}, not 200`, res });
      continue;
    }
    const missing = wants.filter((n) => !embedded(jsonBody(res), n));
    if (missing.length)
      problems.push({ message: `${query} did not embed ${missing.join(', ')}`, res });
  }
  return problems;
}
