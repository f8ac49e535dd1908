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
import { checkMediaType } from './check-media-type.js';

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

describe('checkMediaType', () => {
  it('is 415 for a body of a media type the operation does not take', async () => {
    const x = await reaching(
      checkMediaType,
      'POST',
      '/api/v1/users',
      {
        ...admin,
        'Content-Type': 'text/plain',
      },
      'hello',
    );
    expect(() => checkMediaType(x)).toThrow(
      expect.objectContaining({ status: 415, slug: 'unsupported-media-type' }),
    );
  });

  it('is 415 for a charset other than UTF-8', async () => {
    const x = await reaching(
      checkMediaType,
      'POST',
      '/api/v1/users',
      {
        ...admin,
        'Content-Type': 'application/json; charset=latin1',
      },
      '{}',
    );
    expect(() => checkMediaType(x)).toThrow(expect.objectContaining({ status: 415 }));
  });

  it('keeps the accepted media type for parseBody', async () => {
    const x = await reaching(checkMediaType, 'POST', '/api/v1/users', { ...admin, ...json }, '{}');
    checkMediaType(x);
    expect(x.mediaType).toBe('application/json');
  });

  it('has nothing to judge on a GET', async () => {
    const x = await reaching(checkMediaType, 'GET', '/api/v1/users/2', user);
    checkMediaType(x);
    expect(x.mediaType).toBeUndefined();
  });
});
