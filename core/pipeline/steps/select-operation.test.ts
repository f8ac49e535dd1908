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
import { selectOperation } from './select-operation.js';

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

describe('selectOperation', () => {
  it('is 501 for a method HTTP does not know', async () => {
    const x = await reaching(selectOperation, 'BREW', '/api/v1/users');
    expect(() => selectOperation(x, env)).toThrow(expect.objectContaining({ status: 501 }));
  });

  it('is 405 with Allow for a method the route does not take', async () => {
    const x = await reaching(selectOperation, 'DELETE', '/api/v1/users');
    expect(() => selectOperation(x, env)).toThrow(
      expect.objectContaining({ status: 405, headers: { Allow: 'GET, HEAD, POST, OPTIONS' } }),
    );
  });

  it("selects HEAD as GET's operation, with its handler and validators", async () => {
    const x = await reaching(selectOperation, 'HEAD', '/api/v1/users/7');
    await selectOperation(x, env);
    expect(x.operationId).toBe('getUser');
    expect(x.selected?.operation.operationId).toBe('getUser');
    expect(typeof x.selected?.handler.run).toBe('function');
  });

  it('awaits nothing once the operation was compiled', async () => {
    await selectOperation(await reaching(selectOperation, 'GET', '/api/v1/roles'), env);
    const again = await reaching(selectOperation, 'GET', '/api/v1/roles');
    expect(selectOperation(again, env)).toBeUndefined();
    expect(again.selected).toBeDefined();
  });
});
