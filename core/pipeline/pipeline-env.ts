import type { SpecOperation } from '../../spec/operations.js';
import type { DomainContext } from '../domain/ports.js';
import type { ApiOptions } from './api-options.js';
import type { CorsOrigins } from './cors-policy.js';
import { IdempotencyKeys } from './idempotency.js';
import type { OpenDocuments } from './open-routes.js';
import { parsersPerOperation, type OperationParsers } from './parsers-per-operation.js';
import { createRouteTable } from './route-table.js';

/** What the steps share across requests: built once per `createApi`, never per request. */
export interface PipelineEnv {
  ctx: DomainContext;
  documents: OpenDocuments;
  corsOrigins: CorsOrigins;
  routes: ReturnType<typeof createRouteTable>;
  parsersOf(op: SpecOperation): OperationParsers | Promise<OperationParsers>;
  idempotency: IdempotencyKeys;
  onUnexpectedError?: (error: unknown, requestId: string) => void;
  onUnavailable?: (error: unknown, requestId: string) => void;
}

/**
 * The steps' shared parts from the options of `createApi`: routes compiled from the spec,
 * validators compiled per operation on first use, the Idempotency-Key memory.
 *
 * @example
 * const env = createPipelineEnv({ ctx, spec, documents });
 */
export function createPipelineEnv(options: ApiOptions): PipelineEnv {
  return {
    ctx: options.ctx,
    documents: options.documents,
    corsOrigins: options.corsOrigins ?? '*',
    routes: createRouteTable(options.spec),
    parsersOf: parsersPerOperation(),
    idempotency: new IdempotencyKeys(options.ctx),
    ...(options.onUnexpectedError ? { onUnexpectedError: options.onUnexpectedError } : {}),
    ...(options.onUnavailable ? { onUnavailable: options.onUnavailable } : {}),
  };
}
