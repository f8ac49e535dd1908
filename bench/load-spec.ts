/**
 * The token in a body template that becomes a number unique to the request. Here, not in the
 * driver, whose module runs the driver when loaded.
 */
export const UNIQUE_TOKEN = '{{n}}';

/** What one load measurement fires: bench/load.ts hands it to bench/load-driver.ts. */
export interface LoadSpec {
  /**
   * Full URL, loopback only; several (the same path on several instances): autocannon spreads
   * its connections over them round-robin, a client-side balancer.
   */
  url: string | string[];
  method?: string;
  headers?: Record<string, string>;
  /** A request body; every {@link UNIQUE_TOKEN} becomes a number unique to the request. */
  body?: string;
  connections: number;
  /** Measure for this long (ignored with `amount`). */
  durationSeconds?: number;
  /** Measure this many requests instead (a write bench that must not grow the store much). */
  amount?: number;
  /** Hard stop, whatever `amount` says. */
  maxSeconds: number;
  /** Discarded load before the measured one (JIT, caches, connection setup). */
  warmupSeconds?: number;
  warmupAmount?: number;
}

/** One measurement as the load generator saw it. */
export interface LoadResult {
  /** 2xx answers per second: the throughput figure every ratio uses. */
  okPerSecond: number;
  ok: number;
  non2xx: number;
  /** Connection errors, timeouts included. */
  errors: number;
  timeouts: number;
  durationSeconds: number;
  /** Latency of the 2xx answers (autocannon records only those). */
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  /** Count per status code, to tell a 429 or 401 storm from a slow server. */
  statusCodes: Record<string, number>;
}
