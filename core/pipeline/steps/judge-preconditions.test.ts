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
import { judgePreconditions } from './judge-preconditions.js';

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

describe('judgePreconditions', () => {
  it('is 412 for an If-Match that is not the current ETag, before the body is read', async () => {
    const x = await reaching(
      judgePreconditions,
      'PUT',
      '/api/v1/users/2',
      { ...admin, ...json, 'If-Match': '"stale"' },
      'not even JSON',
    );
    expect(() => judgePreconditions(x)).toThrow(
      expect.objectContaining({ status: 412, slug: 'precondition-failed' }),
    );
  });

  it('is 412 for If-None-Match: * on an existing resource', async () => {
    const x = await reaching(
      judgePreconditions,
      'PUT',
      '/api/v1/users/2',
      { ...admin, ...json, 'If-None-Match': '*' },
      '{}',
    );
    expect(() => judgePreconditions(x)).toThrow(expect.objectContaining({ status: 412 }));
  });

  it('passes unconditional writes and safe methods', async () => {
    const put = await reaching(
      judgePreconditions,
      'PUT',
      '/api/v1/users/2',
      { ...admin, ...json },
      '{}',
    );
    expect(judgePreconditions(put)).toBeUndefined();
    const get = await reaching(judgePreconditions, 'GET', '/api/v1/users/2', {
      ...user,
      'If-Match': '"stale"',
    });
    expect(judgePreconditions(get)).toBeUndefined();
  });
});
