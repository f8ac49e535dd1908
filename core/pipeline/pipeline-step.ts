import type { Exchange } from './exchange.js';
import type { PipelineEnv } from './pipeline-env.js';

/** A response before the pipeline's finishing headers: status, its own headers, the bytes. */
export interface StepAnswer {
  status: number;
  headers: Record<string, string>;
  body: string | null;
}

/**
 * One named step of the pipeline. It answers (the request is done), throws a problem (the
 * request is done, as problem+json), or returns undefined to hand the request on. A step that
 * needs no I/O returns synchronously, so the hot path awaits only what really waits.
 */
export type PipelineStep = (
  x: Exchange,
  env: PipelineEnv,
) => StepAnswer | undefined | Promise<StepAnswer | undefined>;
