import type { PaceEvent, PolicyBudget } from './rate-limit-pacer.js';
import type { Exchange, PlannedRequest } from './exchange.js';

/** How a {@link TargetClient} reaches the target and whom it tells what it did. */
export interface TargetClientOptions {
  /** e.g. `http://127.0.0.1:3000/api/v1` */
  baseUrl: string;
  /** Per-request timeout (default 10 s). */
  timeoutMs?: number;
  /** Parallel connections (default DEFAULT_CONCURRENCY). */
  concurrency?: number;
  /** At most this many requests a second (default: no cap). */
  rateLimit?: number;
  /** How often a 429 is waited out and retried (default 3); each wait is capped at 30 s. */
  retries429?: number;
  /** Told about every exchange, for response checks and coverage. */
  onExchange?: (exchange: Exchange) => void;
  /** Told before the client waits out a 429 (seconds), so a long pause is never silent. */
  onWait?: (seconds: number, request: PlannedRequest) => void;
  /**
   * Pace to the target's announced rate limits (RateLimit/RateLimit-Policy headers) instead
   * of meeting 429s (default true).
   */
  pace?: boolean;
  /** Told when pacing holds the requests back until a window resets. */
  onPace?: (event: PaceEvent) => void;
  /** Told about each rate-limit policy the first time the target names it. */
  onPolicy?: (budget: PolicyBudget) => void;
  /** Headers sent on every request (API keys, tenants); a request's own headers win. */
  headers?: Record<string, string>;
  /**
   * Asked before each request that is not housekeeping; it refuses one by throwing (the run's
   * scope: no request to an operation outside it).
   */
  guard?: (request: PlannedRequest) => void;
}
