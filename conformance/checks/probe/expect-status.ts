import type { SpecOperation } from '../../../spec/operations.js';
import type { OperationCall } from '../../http/build-request.js';
import type { RunContext } from '../../run-context.js';
import type { ScenarioCheck } from '../check.js';
import {
  credentialFor,
  describeResponse,
  pathParams,
  type ProbeParams,
} from '../support/probe-support.js';

/** A probe that sends one request per operation and expects one documented status. */
export interface StatusProbe {
  name: string;
  description: string;
  /** The status the spec must document for the operation to be judged, and the one expected. */
  status: number;
  /** Why the operation is not judged (beyond the status not being documented), if it is not. */
  skip?(op: SpecOperation): string | undefined;
  /** The request: valid but for the one thing the probe is about. */
  call(ctx: RunContext, op: SpecOperation, params: ProbeParams): OperationCall;
  /** In words, what was sent: "Accept: text/html", "a 1 MiB body". */
  sent(call: OperationCall): string;
}

/**
 * Builds the check for a StatusProbe: for every selected operation that documents the status,
 * with the right credentials and real path parameters, so that only the probed thing is
 * wrong. A 429 or 5xx is no verdict on it (other checks judge those) and becomes a skip.
 */
export function statusProbe(probe: StatusProbe): ScenarioCheck {
  const expected = String(probe.status);
  return {
    kind: 'scenario',
    name: probe.name,
    description: probe.description,
    async run(ctx, record) {
      await ctx.each(ctx.operations, async (op) => {
        if (!(expected in op.responses))
          return record.skip(op, `the spec documents no ${expected} for it`);
        const reason = probe.skip?.(op);
        if (reason) return record.skip(op, reason);
        const credential = credentialFor(ctx, op);
        if (typeof credential === 'object' && 'reason' in credential)
          return record.skip(op, credential.reason);
        const params = await pathParams(ctx, op, { shared: true });
        if ('reason' in params) return record.skip(op, params.reason);
        if (ctx.stopped()) return;
        const call = probe.call(ctx, op, params);
        const exchange = await ctx.call(op, call, credential);
        const status = exchange.response.status;
        if (status === 429 || status >= 500) {
          return record.skip(op, `the answer was ${status}, not a verdict on ${probe.sent(call)}`);
        }
        if (status !== probe.status) {
          return record.fail(
            op,
            {
              message: `${probe.sent(call)} was answered ${status}`,
              expected,
              actual: describeResponse(exchange),
            },
            exchange,
          );
        }
        record.pass(op, `${probe.sent(call)} answered ${expected}`);
      });
    },
  };
}
