import { fileURLToPath } from 'node:url';
import { runChildJson } from './child-json.js';
import type { LoadResult, LoadSpec } from './load-spec.js';

export type { LoadResult, LoadSpec } from './load-spec.js';

const DRIVER = fileURLToPath(new URL('./load-driver.js', import.meta.url));
/** Time the driver gets beyond its own hard stops (startup, printing). */
const GRACE_SECONDS = 30;

/**
 * Fires `spec` from a separate process (autocannon in bench/load-driver.js) and resolves with
 * what it measured. Rejects when the driver fails or overruns its hard stops.
 *
 * @example
 * const r = await runLoad({ url: 'http://127.0.0.1:3000/', connections: 50, durationSeconds: 5, maxSeconds: 10 });
 * r.okPerSecond;
 */
export function runLoad(spec: LoadSpec): Promise<LoadResult> {
  const warmup = spec.warmupAmount !== undefined ? spec.maxSeconds : (spec.warmupSeconds ?? 0);
  return runChildJson<LoadResult>(
    DRIVER,
    [JSON.stringify(spec)],
    (spec.maxSeconds + warmup + GRACE_SECONDS) * 1000,
  );
}
