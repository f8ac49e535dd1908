import { readBackOf, WRITES_READ_BACK } from '../../stateful/writes-read-back.js';
import type { ScenarioCheck } from '../check.js';

/**
 * `writes_read_back` (decision 0125): every successful write of the run made through
 * `ctx.call`, whatever check made it, is read back right after, alone (the first few of each
 * operation): a PUT or PATCH answered with a representation reads the same, else shows the
 * members sent; a 201's Location reads the created resource, and a collection with increasing
 * ids holds nothing newer; a DELETE's resource is gone. A failure is recorded as the write is
 * read back; this check, late in the run, reports the operations whose writes all read back
 * as answered.
 */
export const writesReadBackCheck: ScenarioCheck = {
  kind: 'scenario',
  name: WRITES_READ_BACK,
  description:
    'Every successful write, read back right after with its credential, shows what it answered (a DELETE: gone)',
  async run(ctx, record) {
    const run = readBackOf(ctx);
    if (run) run.report(record);
    else record.skip(undefined, 'the run made no write through its checks');
  },
};
