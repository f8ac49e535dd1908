import { describe, expect, it } from 'vitest';
import { ApiProblem } from '../domain/api-problem.js';
import type { ApiRequest } from './api-types.js';
import { createExchange } from './exchange.js';
import type { PipelineEnv } from './pipeline-env.js';
import type { PipelineStep } from './pipeline-step.js';
import { runPipeline, runSteps } from './run-pipeline.js';

const env = { corsOrigins: '*' } as PipelineEnv;
const request: ApiRequest = {
  method: 'GET',
  path: '/api/v1/things',
  query: '',
  headers: new Headers(),
  body: null,
};
const ok: PipelineStep = () => ({ status: 200, headers: {}, body: '"ok"' });

describe('runSteps', () => {
  it('runs steps in order until one answers; the rest never run', async () => {
    const ran: string[] = [];
    const pass =
      (name: string): PipelineStep =>
      () =>
        void ran.push(name);
    const answer = await runSteps(
      [pass('a'), async () => void ran.push('b'), ok, pass('c')],
      createExchange(request),
      env,
    );
    expect(answer?.status).toBe(200);
    expect(ran).toEqual(['a', 'b']);
  });

  it('answers undefined when no step does, and lets a problem through', async () => {
    expect(runSteps([], createExchange(request), env)).toBeUndefined();
    const refuse: PipelineStep = () => {
      throw new ApiProblem('not-acceptable', 'no');
    };
    expect(() => runSteps([refuse, ok], createExchange(request), env)).toThrow(ApiProblem);
    const later: PipelineStep[] = [async () => undefined, refuse, ok];
    await expect(runSteps(later, createExchange(request), env)).rejects.toBeInstanceOf(ApiProblem);
  });

  it('awaits nothing until a step returns a promise', () => {
    expect(runSteps([() => undefined, ok], createExchange(request), env)).toMatchObject({
      status: 200,
    });
  });
});

describe('runPipeline', () => {
  it('finishes the answer of the first step that answers', async () => {
    const res = await runPipeline([ok], request, env);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-length')).toBe('4');
  });

  it('answers a thrown problem as problem+json, and a pipeline without an answer as a 500', async () => {
    const refuse: PipelineStep = async () => {
      throw new ApiProblem('not-acceptable', 'no');
    };
    const refused = await runPipeline([refuse, ok], request, env);
    expect(refused.status).toBe(406);
    expect(refused.headers.get('content-type')).toBe('application/problem+json');
    expect((await runPipeline([], request, env)).status).toBe(500);
  });
});
