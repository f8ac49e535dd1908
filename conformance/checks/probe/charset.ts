import { declaredHttp } from '../../../spec/apikit-extensions.js';
import type { ScenarioCheck } from '../check.js';
import {
  bodyMediaType,
  credentialFor,
  describeResponse,
  pathParams,
  validCall,
} from '../support/probe-support.js';

/**
 * charset_parameter, where the spec declares `x-apikit-http.utf8Charset`: a valid body whose
 * Content-Type names another charset (`; charset=iso-8859-1`) is 415 wherever the spec
 * documents 415; naming UTF-8 (`; charset=utf-8`) changes nothing, judged on PATCH (at a
 * resource the run made, so that nothing new is left behind): never 415.
 */
export const charsetParameter: ScenarioCheck = {
  kind: 'scenario',
  name: 'charset_parameter',
  description:
    'A body in a charset other than UTF-8 is 415; charset=utf-8 is taken (where declared)',
  async run(ctx, record) {
    if (!declaredHttp(ctx.spec).utf8Charset)
      return record.skip(undefined, 'the spec does not declare x-apikit-http.utf8Charset');
    const ops = ctx.operations.filter((op) => bodyMediaType(op) && '415' in op.responses);
    if (ops.length === 0) record.skip(undefined, 'no selected operation documents 415 for a body');
    await ctx.each(ops, async (op) => {
      const credential = credentialFor(ctx, op);
      if (typeof credential === 'object' && 'reason' in credential)
        return record.skip(op, credential.reason);
      const params = await pathParams(ctx, op);
      if ('reason' in params) return record.skip(op, params.reason);
      const valid = validCall(ctx, op, params);
      if (valid.body === undefined) return record.skip(op, 'no valid body could be made');
      const sent = [{ charset: 'iso-8859-1', expect: 415 }];
      if (op.method === 'patch' && params.real) sent.push({ charset: 'utf-8', expect: 0 });
      for (const { charset, expect } of sent) {
        if (ctx.stopped()) return;
        const contentType = `${valid.contentType ?? 'application/json'}; charset=${charset}`;
        const exchange = await ctx.call(op, { ...valid, contentType }, credential);
        const status = exchange.response.status;
        if (status === 429 || status >= 500 || status === 401 || status === 403) {
          return record.skip(op, `${status}: no verdict on the charset`);
        }
        const wrong = expect ? status !== expect : status === 415;
        if (wrong)
          return record.fail(
            op,
            {
              message: `a valid body sent as ${contentType} was answered ${status}`,
              expected: expect ? String(expect) : 'anything but 415 (UTF-8 is the charset taken)',
              actual: describeResponse(exchange),
            },
            exchange,
          );
      }
      record.pass(
        op,
        `charset=iso-8859-1 refused with 415${sent.length > 1 ? ', utf-8 taken' : ''}`,
      );
    });
  },
};
