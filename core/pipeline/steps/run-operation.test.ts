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
import { runOperation } from './run-operation.js';

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

describe('runOperation', () => {
  it("renders the handler's result: body, ETag and a 304 for a matching If-None-Match", async () => {
    const answer = await runOperation(
      await reaching(runOperation, 'GET', '/api/v1/users/2', user),
      env,
    );
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body ?? '')).toMatchObject({ id: 2 });
    const etag = answer.headers.ETag as string;
    const again = await reaching(runOperation, 'GET', '/api/v1/users/2', {
      ...user,
      'If-None-Match': etag,
    });
    expect((await runOperation(again, env)).status).toBe(304);
  });

  it("answers the domain's problem as problem+json rather than throwing it", async () => {
    const taken = JSON.stringify({ name: 'Ada again', email: 'ada@example.com' });
    const x = await reaching(runOperation, 'POST', '/api/v1/users', { ...admin, ...json }, taken);
    const answer = await runOperation(x, env);
    expect(answer.status).toBe(409);
    expect(answer.headers['Content-Type']).toBe('application/problem+json');
  });

  it('replays the answer of a repeated Idempotency-Key and refuses it with another body', async () => {
    const headers = { ...admin, ...json, 'Idempotency-Key': 'run-operation-1' };
    const body = JSON.stringify({ name: 'Fay', email: 'fay@example.com' });
    const first = await runOperation(
      await reaching(runOperation, 'POST', '/api/v1/users', headers, body),
      env,
    );
    const replay = await runOperation(
      await reaching(runOperation, 'POST', '/api/v1/users', headers, body),
      env,
    );
    expect(first.status).toBe(201);
    expect(replay).toMatchObject({ status: 201, body: first.body });
    const other = JSON.stringify({ name: 'Gus', email: 'gus@example.com' });
    const reused = await reaching(runOperation, 'POST', '/api/v1/users', headers, other);
    await expect(runOperation(reused, env)).rejects.toMatchObject({ status: 422 });
  });
});
