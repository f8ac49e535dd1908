import type { AuthOptions } from './auth-session.js';
import type { CheckRegistry } from './checks/check-registry.js';
import type { FuzzSettings } from './fuzz/run-fuzz.js';
import type { CheckResult } from './report.js';
import type { InteractionFile } from '../spec/interactions/interaction-file.js';

/** The fuzz phase of a run: how hard to fuzz, and whether to skip the normal checks. */
export interface FuzzOptions extends FuzzSettings {
  /** Only the fuzz phase (and the response checks of its setup): `--fuzz-only`. */
  only?: boolean;
}

export interface ConformanceOptions extends AuthOptions {
  /** The implementation's API base, e.g. `http://127.0.0.1:3000/api/v1`. */
  baseUrl: string;
  /** The description to hold it to: a file or an http(s) URL (default: the bundled contract). */
  specPath?: string;
  /**
   * Headers sent on every request (API keys, tenants). Values of credential-like names
   * (`*key*`, `*token*`, `*secret*`, `*auth*`, `Cookie`) are kept out of the reports.
   */
  headers?: Record<string, string>;
  /**
   * Pace the requests to the rate limits the target announces in its RateLimit headers, so
   * that no 429 has to be waited out (default true).
   */
  pace?: boolean;
  /** Aborting stops the run after the requests in flight: cleanup runs, the report says so. */
  signal?: AbortSignal;
  /**
   * Check names (default: all); any name `listChecks` gives. A fuzz check named without `fuzz`
   * brings the fuzz phase with IMPLIED_FUZZ_CASES per operation.
   */
  checks?: string[];
  /** Check names to leave out (`--exclude-checks`), `operation_implemented` too. */
  excludeChecks?: string[];
  /**
   * operationIds, tags or path globs (`/users/*`, `GET /users/**`) to cover (default: all) and
   * to leave out. No check calls, or reports on, an operation outside them (decision 0096).
   */
  include?: string[];
  exclude?: string[];
  seed?: number;
  /** Generated positive cases per operation beyond the examples (default 10). */
  maxExamples?: number;
  /** Parallel requests (default 8, decision 0030). */
  concurrency?: number;
  timeoutMs?: number;
  /** At most this many requests a second (default: no cap). */
  rateLimit?: number;
  /** Stop at the first failure. */
  bail?: boolean;
  /**
   * Also call operations marked `x-apikit-destructive` (e.g. a data reset), and let checks
   * block, promote or demote the given accounts, restoring them (decisions 0082, 0083). Off by
   * default: the runner must never destroy data on a target it did not create.
   */
  allowDestructive?: boolean;
  /**
   * Spend the target's login budget to see its 429 (`rate_limit_exceeded`, last of the checks;
   * decision 0092). Off by default: afterwards nobody at this address can log in until the
   * window ends.
   */
  provokeRateLimits?: boolean;
  /** Your own registry (default: the built-in checks). */
  registry?: CheckRegistry;
  /**
   * After the checks, fuzz every selected operation with `perOperation` generated and
   * deliberately broken requests (`apikit conform --fuzz N`). The fuzz checks then run after
   * the selected ones, and the report's `summary.fuzz` holds the phase's numbers. With
   * `only`, the run is the fuzz phase and the response checks that judge its answers.
   */
  fuzz?: FuzzOptions;
  /**
   * A frontend's recorded interactions (`apikit conform --interactions FILE`, decision 0113):
   * the run replays them (`consumer_interactions`) and reports the consumer coverage. Without
   * `checks`, that replay is the whole run (verify-only, as Pact's provider verification);
   * checks named in `checks` run before it.
   */
  interactions?: InteractionFile;
  /** Told about the run as it goes, for progress output. */
  onProgress?: (event: ProgressEvent) => void;
}

export type ProgressEvent =
  | { kind: 'start'; operations: number; checks: string[] }
  | { kind: 'check'; check: string; index: number; total: number }
  | { kind: 'result'; result: CheckResult; requests: number }
  | { kind: 'wait'; seconds: number; reason: string }
  /** The target announced a rate-limit policy (once per policy and partition). */
  | { kind: 'policy'; policy: string; quota?: number; windowSeconds?: number }
  /** Pacing holds the requests back until `untilMs`: `policy` has no requests left. */
  | {
      kind: 'pace';
      policy: string;
      quota?: number;
      windowSeconds?: number;
      untilMs: number;
      requests: number;
    }
  | { kind: 'cleanup' };

/** The run could not start or go on: bad options, invalid spec, unreachable target, failed login. */
export class ConformanceSetupError extends Error {
  override name = 'ConformanceSetupError';
}
