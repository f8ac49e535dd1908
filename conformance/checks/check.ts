import type { SpecOperation } from '../../spec/operations.js';
import type { Exchange } from '../http/target-client.js';
import type { RunContext } from '../run-context.js';

/** What a check found wrong: said so a developer can act on it. */
export interface CheckFailure {
  message: string;
  expected?: string;
  actual?: string;
}

/**
 * A check applied to every exchange the runner makes (whatever planned it): status, media
 * type, headers and schema conformance. Returns the failures; none means passed.
 */
export interface ResponseCheck {
  kind: 'response';
  name: string;
  description: string;
  check(exchange: Exchange, operation: SpecOperation, ctx: RunContext): CheckFailure[];
}

/** Where an active check records what it saw, per operation. */
export interface CheckRecorder {
  pass(operation: SpecOperation, message: string, exchange?: Exchange): void;
  fail(operation: SpecOperation, failure: CheckFailure, exchange?: Exchange): void;
  /** A check that could not run, with the reason (e.g. no ADMIN credentials given). */
  skip(operation: SpecOperation | undefined, reason: string): void;
}

/**
 * An active probe: it plans its own requests (a negative body, a second DELETE, a conditional
 * GET) through `ctx`, and records one result per operation it judged. A probe that throws is
 * reported as a failure of the probe, not of the run.
 */
export interface ScenarioCheck {
  kind: 'scenario';
  name: string;
  description: string;
  run(ctx: RunContext, record: CheckRecorder): Promise<void>;
}

export type Check = ResponseCheck | ScenarioCheck;
