import type { OpenApiDocument } from '../spec/load-spec.js';
import type { SpecOperation } from '../spec/operations.js';
import type { ResponseValidator } from '../spec/response-validator.js';
import type { AuthSession, Credential } from './auth-session.js';
import type { CaseGenerator } from './generate/case-generator.js';
import type { OperationCall } from './http/build-request.js';
import type { Exchange, TargetClient } from './http/target-client.js';
import type { SeededRandom } from '../spec/schema/seeded-random.js';
import type { Fixtures } from './stateful/fixtures.js';
import type { RunScope } from './run-scope.js';

export interface RunOptions {
  seed: number;
  /** Generated positive cases per operation, beyond the spec's examples. */
  maxExamples: number;
  /** --allow-destructive: checks may also block, demote and restore the given accounts. */
  allowDestructive?: boolean;
  /** --provoke-rate-limits: the last check may spend the login budget to see a 429. */
  provokeRateLimits?: boolean;
}

/** Everything a check may use: the spec, the target, credentials, data and fixtures. */
export interface RunContext {
  spec: OpenApiDocument;
  /**
   * The operations to judge: those selected by --include/--exclude, less those the target
   * turned out not to implement (`operation_implemented`, which runs first).
   */
  readonly operations: SpecOperation[];
  /**
   * Every operation of the spec, to read it (link targets, lookups). Calling one outside
   * `operations` is refused with OperationUnavailableError: see `scope.unavailable`.
   */
  allOperations: SpecOperation[];
  /** What the run may touch, and why an operation is not the checks' to call (decision 0096). */
  scope: RunScope;
  validator: ResponseValidator;
  client: TargetClient;
  auth: AuthSession;
  random: SeededRandom;
  generate: CaseGenerator;
  fixtures: Fixtures;
  options: RunOptions;
  /**
   * Calls an operation: builds the request from the spec and `call`, authenticates as
   * `credential` (default: the user for secured operations, none for open ones), sends it,
   * and attributes the exchange to the operation (response checks, coverage).
   */
  call(op: SpecOperation, call?: OperationCall, credential?: Credential): Promise<Exchange>;
  /** The operation with that id, from all operations (it may be out of scope). */
  operation(operationId: string): SpecOperation | undefined;
  /**
   * Runs `fn` over `items` with the run's concurrency; stops early when the run bails. An item
   * that throws does not stop the others; the first error is thrown once all have settled.
   */
  each<T>(items: T[], fn: (item: T) => Promise<void>): Promise<void>;
  /** True once `--bail` saw a failure: long checks should return early. */
  stopped(): boolean;
}
