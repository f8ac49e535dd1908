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
import { authorizeTarget } from './authorize-target.js';

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
const stale = { 'If-Match': '"stale"' };

describe('authorizeTarget', () => {
  it.each([
    ['PUT', '{"name":"Eve","email":"eve@example.com"}'],
    ['PATCH', '{"name":"Eve"}'],
    ['DELETE', undefined],
  ])(
    'is 403 for a USER who %ss a user holding ADMIN, stale If-Match or not',
    async (method, body) => {
      const headers = { ...user, ...stale, ...(body ? json : {}) };
      const x = await reaching(authorizeTarget, method, '/api/v1/users/1', headers, body);
      expect(() => authorizeTarget(x)).toThrow(
        expect.objectContaining({
          status: 403,
          slug: 'forbidden',
          message: 'User 1 holds ADMIN; only an ADMIN may change them.',
        }),
      );
    },
  );

  it('is 403 for a USER activating a user holding ADMIN, before the body is read', async () => {
    const x = await reaching(
      authorizeTarget,
      'POST',
      '/api/v1/users/1/activate',
      { ...user, ...json },
      '{"unexpected":true}',
    );
    expect(() => authorizeTarget(x)).toThrow(expect.objectContaining({ status: 403 }));
  });

  it('passes an ADMIN, a USER acting on a USER, an absent user and other operations', async () => {
    const cases: [string, string, Record<string, string>][] = [
      ['PATCH', '/api/v1/users/1', admin],
      ['PATCH', '/api/v1/users/3', user],
      ['PUT', '/api/v1/users/999', user],
      ['DELETE', '/api/v1/users/2/orders/1', user],
    ];
    for (const [method, path, who] of cases) {
      const x = await reaching(authorizeTarget, method, path, { ...who, ...stale, ...json }, '{}');
      expect(authorizeTarget(x), `${method} ${path}`).toBeUndefined();
    }
  });
});
