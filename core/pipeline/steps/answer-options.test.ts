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
import { answerOptions } from './answer-options.js';

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

describe('answerOptions', () => {
  it('answers OPTIONS with 204 and Allow, Accept-Patch where PATCH is', async () => {
    const list = answerOptions(await reaching(answerOptions, 'OPTIONS', '/api/v1/users'), env);
    expect(list).toEqual({
      status: 204,
      headers: { Allow: 'GET, HEAD, POST, OPTIONS' },
      body: null,
    });
    const one = answerOptions(await reaching(answerOptions, 'OPTIONS', '/api/v1/users/7'), env);
    expect(one?.headers['Accept-Patch']).toBeTruthy();
  });

  it('adds the preflight headers for a CORS preflight', async () => {
    const x = await reaching(answerOptions, 'OPTIONS', '/api/v1/users', {
      Origin: 'https://app.example',
      'Access-Control-Request-Method': 'POST',
    });
    const answer = answerOptions(x, env);
    expect(answer?.headers['Access-Control-Allow-Methods']).toBe('GET, HEAD, POST, OPTIONS');
    expect(x.operationId).toBe('optionsUsers');
  });

  it('hands on every other method', async () => {
    expect(
      answerOptions(await reaching(answerOptions, 'GET', '/api/v1/users'), env),
    ).toBeUndefined();
  });
});
