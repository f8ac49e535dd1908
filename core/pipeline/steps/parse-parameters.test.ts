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
import { parseParameters } from './parse-parameters.js';

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

describe('parseParameters', () => {
  it('is 400 listing every bad parameter, path and query alike', async () => {
    const x = await reaching(parseParameters, 'GET', '/api/v1/users/abc?unknown=1', user);
    try {
      parseParameters(x, env);
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ status: 400, slug: 'validation-failed' });
      const pointers = (error as { errors: { pointer: string }[] }).errors.map((e) => e.pointer);
      expect(pointers.sort()).toEqual(['#/path/id', '#/query/unknown']);
    }
  });

  it("builds the handler's input from the converted parameters", async () => {
    const x = await reaching(parseParameters, 'GET', '/api/v1/users/2', user);
    parseParameters(x, env);
    expect(x.input).toMatchObject({
      principal: { userId: 2 },
      path: { id: 2 },
      body: undefined,
      apiPath: '/users/2',
      rawQuery: '',
    });
    expect(x.idempotencyKey).toBeUndefined();
  });

  it('keeps the Idempotency-Key for runOperation', async () => {
    const x = await reaching(
      parseParameters,
      'POST',
      '/api/v1/users',
      {
        ...admin,
        'Content-Type': 'application/json',
        'Idempotency-Key': 'k-1',
      },
      '{}',
    );
    parseParameters(x, env);
    expect(x.idempotencyKey).toBe('k-1');
  });
});
