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
import { authenticateCaller } from './authenticate-caller.js';

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

describe('authenticateCaller', () => {
  it('is 401 without a token, which was not presented', async () => {
    const x = await reaching(authenticateCaller, 'GET', '/api/v1/users/2');
    expect(() => authenticateCaller(x, env)).toThrow(
      expect.objectContaining({ status: 401, slug: 'unauthenticated' }),
    );
    expect(x.tokenPresented).toBe(false);
  });

  it('is 401 for a bad token, which was presented', async () => {
    const x = await reaching(authenticateCaller, 'GET', '/api/v1/users/2', {
      Authorization: 'Bearer not.a.token',
    });
    await expect(authenticateCaller(x, env)).rejects.toMatchObject({ status: 401 });
    expect(x.tokenPresented).toBe(true);
  });

  it('is the 400 of a token sent in two ways', async () => {
    const x = await reaching(authenticateCaller, 'GET', '/api/v1/users/2?access_token=t', user);
    expect(() => authenticateCaller(x, env)).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('sets the principal of a valid token', async () => {
    const x = await reaching(authenticateCaller, 'GET', '/api/v1/users/2', user);
    await authenticateCaller(x, env);
    expect(x.principal).toEqual({ userId: 2, isAdmin: false });
  });

  it('passes an open operation untouched, even with a token', async () => {
    const x = await reaching(authenticateCaller, 'POST', '/api/v1/auth/login', user);
    expect(authenticateCaller(x, env)).toBeUndefined();
    expect(x.principal).toBeUndefined();
  });
});
