import { createJwtAccessTokenCodec } from '../../../node-runtime/jwt-access-token-codec.js';
import { beforeAll } from 'vitest';
import bundled from '../../../spec/openapi.json' with { type: 'json' };
import { dereferenceDocument } from '../../../spec/dereference-document.js';
import type { MemoryStore } from '../domain/memory-store.js';
import { createTestContext } from '../domain/test-context.js';
import { testDataset } from '../domain/test-dataset.js';
import { createExchange, type Exchange } from '../../../core/pipeline/exchange.js';
import { createPipelineEnv, type PipelineEnv } from '../../../core/pipeline/pipeline-env.js';
import type { PipelineStep } from '../../../core/pipeline/pipeline-step.js';
import { pipelineSteps } from '../../../core/pipeline/pipeline-steps.js';
import { runSteps } from '../../../core/pipeline/run-pipeline.js';

/** What a test of one pipeline step needs: the steps' shared state, callers, and a request. */
export interface StepHarness {
  env: PipelineEnv;
  /** The memory store under `env` (its `writes` are the commits). */
  store: MemoryStore;
  /** Authorization headers of the test data set's 1 Ada (ADMIN) and 2 Bob (USER). */
  admin: Record<string, string>;
  user: Record<string, string>;
  /** A request as the steps before `step` leave it. */
  reaching(
    step: PipelineStep,
    method: string,
    target: string,
    headers?: Record<string, string>,
    body?: string,
  ): Promise<Exchange>;
}

/**
 * The pipeline over the test data set with real HS256 tokens, for the tests beside each step.
 * Call it at the top of a test file: the callers' headers are filled in before the tests run.
 *
 * @example
 * const { env, admin, reaching } = stepHarness();
 */
export function stepHarness(): StepHarness {
  const codec = createJwtAccessTokenCodec('a-test-signing-secret-of-at-least-32-bytes');
  const tc = createTestContext(testDataset());
  const env = createPipelineEnv({
    ctx: { ...tc.ctx, tokens: codec },
    spec: dereferenceDocument(bundled),
    documents: { json: () => '', yaml: () => '' },
  });
  const admin: Record<string, string> = {};
  const user: Record<string, string> = {};
  beforeAll(async () => {
    const now = tc.clock.now();
    const bearer = async (sub: string, name: string, role: 'ADMIN' | 'USER') => ({
      Authorization: `Bearer ${await codec.sign({ sub, name, role }, 900, now)}`,
    });
    Object.assign(admin, await bearer('1', 'Ada', 'ADMIN'));
    Object.assign(user, await bearer('2', 'Bob', 'USER'));
  });
  return {
    env,
    store: tc.store,
    admin,
    user,
    reaching: async (step, method, target, headers = {}, body) => {
      const [path = '', query = ''] = target.split('?');
      const x = createExchange({
        method,
        path,
        query,
        headers: new Headers(headers),
        body: body === undefined ? null : new TextEncoder().encode(body),
      });
      await runSteps(pipelineSteps.slice(0, pipelineSteps.indexOf(step)), x, env);
      return x;
    },
  };
}
