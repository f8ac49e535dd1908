import { declaredHttp } from '../../../spec/http-extensions.js';
import { serviceDeclaration } from '../../../spec/service-extensions.js';
import type { RunContext } from '../../run-context.js';
import type { CheckFailure, ResponseCheck } from '../check.js';
import { describe, isSuccess } from '../support/stateful-support.js';

/** The data set's date as a run first read it, and the operation that answered it. */
interface DataSetDate {
  time: number;
  header: string;
  by: string;
}

/** Per run: its context lives as long as the run. */
const firstDates = new WeakMap<RunContext, DataSetDate>();

/**
 * `data_set_date_kept` (a response check), where `x-apikit-http` declares `dataSetDated`:
 * every 200 of those GETs and HEADs in a run carries the one date the run first read, the
 * time the data set was created. A reset (the operation `x-apikit-service` declares as
 * `reset`) answered with success makes a new data set, so the next date read is the new one.
 * `data_set_dated` compares one read of each; this judges every answer of the run. Found by
 * the mutation harness (issue 32): a catalog read dated an hour off passed.
 */
export const dataSetDateKept: ResponseCheck = {
  kind: 'response',
  name: 'data_set_date_kept',
  description:
    'Where x-apikit-http declares dataSetDated, every answer of those GETs carries the one date of the data set',
  check(exchange, op, ctx): CheckFailure[] {
    const status = exchange.response.status;
    if (op.operationId === serviceDeclaration(ctx.spec).reset && isSuccess(status)) {
      firstDates.delete(ctx);
      return [];
    }
    if (status !== 200 || !declaredHttp(ctx.spec).dataSetDated.includes(op.operationId)) return [];
    const header = exchange.headers.get('last-modified');
    const time = header === null ? NaN : Date.parse(header);
    // No date, or a malformed one: response_headers_conformance and data_set_dated judge it.
    if (header === null || Number.isNaN(time)) return [];
    const first = firstDates.get(ctx);
    if (first === undefined) {
      firstDates.set(ctx, { time, header, by: op.operationId });
      return [];
    }
    if (time === first.time) return [];
    return [
      {
        message: `its Last-Modified differs from the data set's date, first read from ${first.by}`,
        expected: `Last-Modified: ${first.header}`,
        actual: `${describe(exchange)}, Last-Modified: ${header}`,
      },
    ];
  },
};
