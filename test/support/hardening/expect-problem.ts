import { expect } from 'vitest';
import type { HttpAnswer } from './http-call.js';

/** The fields of an RFC 9457 problem the contract promises. */
export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  requestId: string;
}

/**
 * Asserts that `res` is the contract's problem+json for `status` (and `type`, when given):
 * the body's status and request id agree with the response, 401 names the Bearer realm,
 * 429 and 503 carry an integer Retry-After. Returns the parsed problem.
 *
 * @example
 * expectProblem(res, 401, 'invalid-token');
 */
export function expectProblem(res: HttpAnswer, status: number, type?: string): ProblemBody {
  const context = `${res.status} ${res.text.slice(0, 300)}`;
  expect(res.status, context).toBe(status);
  expect(res.headers.get('content-type'), context).toMatch(/^application\/problem\+json/);
  const problem = res.json<ProblemBody>();
  expect(problem.status).toBe(status);
  if (type !== undefined) expect(problem.type).toBe(`urn:apikit:problem:${type}`);
  expect(problem.requestId).toBe(res.headers.get('x-request-id'));
  if (status === 401) expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="api"/);
  if (status === 429 || status === 503) {
    expect(res.headers.get('retry-after'), context).toMatch(/^[1-9][0-9]*$/);
  }
  return problem;
}
