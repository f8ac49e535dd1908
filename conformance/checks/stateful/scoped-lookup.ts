import { scopedBy } from '../../../spec/apikit-extensions.js';
import type { Exchange } from '../../http/target-client.js';
import type { ResolvedLink } from '../../stateful/fixtures.js';
import type { ScenarioCheck } from '../check.js';
import { readBackEvidence } from '../support/read-back.js';
import { roundTripBody } from '../support/round-trip-body.js';
import { createWith, follow, linkCall, noLink, readLinks } from '../support/spec-links.js';
import { callAs, describe, jsonBody, requestSchema } from '../support/stateful-support.js';

const ORDER = ['get', 'put', 'patch', 'delete'];

/**
 * `scoped_lookup`, where a create under another resource declares `x-apikit-scoped`: a new
 * resource reached through each of its links that take the declared path parameter, with the
 * value of another parent made by the run (an order under another user), answers the declared
 * status, for reads and writes alike (a PUT of its own representation, a PATCH `{}`, a
 * DELETE, in that order); read under its own parent afterwards, it is still there.
 */
export const scopedLookup: ScenarioCheck = {
  kind: 'scenario',
  name: 'scoped_lookup',
  description:
    'A resource made under a parent is not found under another one (x-apikit-scoped: an order under the wrong user is 404)',
  async run(ctx, record) {
    const ops = ctx.operations.filter(
      (op) => op.method === 'post' && scopedBy(op) && ctx.fixtures.isProducer(op),
    );
    if (ops.length === 0)
      return record.skip(undefined, 'no selected create declares x-apikit-scoped');
    await ctx.each(ops, async (op) => {
      const { parameter, status } = scopedBy(op)!;
      const made = await createWith(ctx, op);
      if ('reason' in made) return record.skip(op, made.reason);
      const other = await ctx.fixtures.paramsFor(op);
      if ('reason' in other) return record.skip(op, other.reason);
      const mine = made.pathParameters[parameter];
      const theirs = other.parameters[parameter];
      if (theirs === undefined || theirs === mine)
        return record.skip(op, `no second ${parameter} could be made`);
      const reader = readLinks(made)[0];
      const own = reader ? await follow(ctx, reader) : undefined;
      const representation = own && !('reason' in own) ? jsonBody(own) : undefined;
      const links = made.links
        .filter((l) => l.parameters[parameter] !== undefined && ORDER.includes(l.target.method))
        .sort((a, b) => ORDER.indexOf(a.target.method) - ORDER.indexOf(b.target.method));
      const said: string[] = [];
      let last: Exchange | undefined;
      for (const link of links) {
        const call = linkCall(ctx, {
          ...link,
          parameters: { ...link.parameters, [parameter]: theirs },
        });
        if ('reason' in call) continue;
        const body =
          link.target.method === 'put'
            ? { body: roundTripBody(ctx, requestSchema(link.target), representation, false) }
            : link.target.method === 'patch'
              ? { body: {} }
              : {};
        const res = (last = await callAs(ctx, link.target, { ...call, ...body }));
        if (res.response.status !== status)
          return record.fail(
            link.target,
            {
              message: `a resource made under ${parameter} ${String(mine)} was found under ${parameter} ${String(theirs)}`,
              expected: `${status} (x-apikit-scoped)`,
              actual: describe(res),
            },
            res,
          );
        said.push(`${link.target.method.toUpperCase()} ${status}`);
      }
      const again = reader ? await follow(ctx, reader) : undefined;
      if (again && !('reason' in again) && again.response.status !== 200)
        return record.fail(
          op,
          {
            message: `after calls under another ${parameter}, the resource is gone from its own`,
            expected: '200 under its own parent',
            // The last call under the other parent is the likeliest cause; the GET shows it.
            actual: last ? readBackEvidence(last, again) : describe(again),
          },
          last ?? again,
        );
      const takes = (l: ResolvedLink) => l.parameters[parameter] !== undefined;
      if (said.length === 0)
        return record.skip(op, noLink(ctx, made, takes, `no link takes ${parameter}`).reason);
      record.pass(op, `under another ${parameter}: ${said.join(', ')}`);
    });
  },
};
