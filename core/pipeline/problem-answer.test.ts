import { describe, expect, it, vi } from 'vitest';
import { ApiProblem } from '../domain/api-problem.js';
import { createExchange } from './exchange.js';
import type { PipelineEnv } from './pipeline-env.js';
import { problemAnswer } from './problem-answer.js';

const x = createExchange({
  method: 'GET',
  path: '/api/users/7',
  query: '',
  headers: new Headers({ 'X-Request-Id': 'req-1' }),
  body: null,
});

describe('problemAnswer', () => {
  it('renders a problem for the canonical instance and the request id', () => {
    const onUnexpectedError = vi.fn();
    const answer = problemAnswer(new ApiProblem('not-found', 'No user 7'), x, {
      onUnexpectedError,
    } as unknown as PipelineEnv);
    expect(answer.status).toBe(404);
    expect(answer.headers['Content-Type']).toBe('application/problem+json');
    expect(JSON.parse(answer.body ?? '')).toMatchObject({
      instance: '/api/v1/users/7',
      requestId: 'req-1',
    });
    expect(onUnexpectedError).not.toHaveBeenCalled();
  });

  it('reports an unexpected error and answers a 500 that names only the request id', () => {
    const onUnexpectedError = vi.fn();
    const bug = new Error('/secret/path exploded');
    const answer = problemAnswer(bug, x, { onUnexpectedError } as unknown as PipelineEnv);
    expect(answer.status).toBe(500);
    expect(answer.body).not.toContain('secret');
    expect(onUnexpectedError).toHaveBeenCalledWith(bug, 'req-1');
  });
});
