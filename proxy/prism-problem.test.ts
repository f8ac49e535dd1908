import { describe, expect, it } from 'vitest';
import { prismProblem, prismProblemViolations } from './prism-problem.js';

const PRISM = 'https://stoplight.io/prism/errors#UNPROCESSABLE_ENTITY';

describe('prismProblem', () => {
  it("is one of Prism's own problems, nothing else", () => {
    expect(prismProblem(Buffer.from(JSON.stringify({ type: PRISM })))).toEqual({ type: PRISM });
    expect(prismProblem(Buffer.from('{"type":"https://example.test/not-found"}'))).toBeUndefined();
    expect(prismProblem(Buffer.from('not json'))).toBeUndefined();
  });
});

describe('prismProblemViolations', () => {
  it('puts request parts under request, keeps request/response locations', () => {
    const problem = {
      type: PRISM,
      validation: [
        { location: ['body', 'email'], severity: 'Error', message: 'must be email' },
        { location: ['response', 'body'], message: 'bad' },
        {},
      ],
    };
    expect(prismProblemViolations(problem, 422)).toEqual([
      { location: 'request.body.email', severity: 'Error', message: 'must be email' },
      { location: 'response.body', severity: 'Error', message: 'bad' },
      { location: 'request', severity: 'Error', message: 'violation' },
    ]);
  });

  it('falls back to the title, on the response side for a 5xx', () => {
    expect(prismProblemViolations({ type: PRISM, title: 'Invalid response' }, 500)).toEqual([
      { location: 'response', severity: 'Error', message: 'Invalid response' },
    ]);
  });
});
