import { beforeAll, describe, expect, it } from 'vitest';
import { createJwtAccessTokenCodec } from '../../../node-runtime/jwt-access-token-codec.js';
import { loadSpec } from '../../../spec/load-spec.js';
import { createTestContext } from '../../../test/support/domain/test-context.js';
import { testDataset } from '../../../test/support/domain/test-dataset.js';
import { createExchange, type Exchange } from '../exchange.js';
import { createPipelineEnv, type PipelineEnv } from '../pipeline-env.js';
import type { PipelineStep } from '../pipeline-step.js';
import { pipelineSteps } from '../pipeline-steps.js';
import { runSteps } from '../run-pipeline.js';
import { parseBody } from './parse-body.js';

const codec = createJwtAccessTokenCodec('a-test-signing-secret-of-at-least-32-bytes');
let env: PipelineEnv;
/** Authorization headers of the test data set's 1 Ada (ADMIN) and 2 Bob (USER). */
let admin: Record<string, string>;
let user: Record<string, string>;
beforeAll(async () => {
  const tc = createTestContext(testDataset());
  const ctx = { ...tc.ctx, tokens: codec };
  env = createPipelineEnv({
    ctx,
    spec: await loadSpec(),
    documents: { json: () => '', yaml: () => '' },
  });
  const now = tc.clock.now();
  admin = {
    Authorization: `Bearer ${await codec.sign({ sub: '1', name: 'Ada', role: 'ADMIN' }, 900, now)}`,
  };
  user = {
    Authorization: `Bearer ${await codec.sign({ sub: '2', name: 'Bob', role: 'USER' }, 900, now)}`,
  };
});

/** A request as the steps before `step` leave it. */
async function reaching(
  step: PipelineStep,
  method: string,
  target: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Exchange> {
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
}

const json = { 'Content-Type': 'application/json' };

describe('parseBody', () => {
  it('is 400 listing every violation of the body', async () => {
    const x = await reaching(
      parseBody,
      'POST',
      '/api/v1/users',
      { ...admin, ...json },
      '{"age":3}',
    );
    try {
      parseBody(x);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ status: 400, slug: 'validation-failed' });
      expect((error as { errors: unknown[] }).errors.length).toBeGreaterThanOrEqual(3);
    }
  });

  it("puts a valid body into the handler's input", async () => {
    const body = { name: 'Eve', email: 'eve@example.com' };
    const x = await reaching(
      parseBody,
      'POST',
      '/api/v1/users',
      { ...admin, ...json },
      JSON.stringify(body),
    );
    parseBody(x);
    expect(x.input?.body).toEqual(body);
  });
});
