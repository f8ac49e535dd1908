/** The MSW phase: the mock handlers' cost in-process, without a socket. */
import { fileURLToPath } from 'node:url';
import { log } from './bench-log.js';
import type { BenchRun } from './bench-run.js';
import { runChildJson } from './child-json.js';
import type { MswHandlerCost } from './msw-handler-cost.js';

/** µs per request through the MSW handlers in-process (no socket), in a child process. */
export async function mswPhase(run: BenchRun): Promise<void> {
  try {
    run.msw = await runChildJson<MswHandlerCost>(
      fileURLToPath(new URL('./msw-handler-cost.js', import.meta.url)),
      [String(run.settings.mswRequests)],
      180_000,
    );
    log(
      `MSW in-process: ${run.msw.usSequential.toFixed(0)} µs/request one at a time, ` +
        `${run.msw.usConcurrent.toFixed(0)} µs amortised with 50 in flight ` +
        `(${run.msw.usConcurrentWithoutValidation.toFixed(0)} µs without response validation)`,
    );
  } catch (error) {
    run.fail('MSW in-process handler cost', error);
  }
}
