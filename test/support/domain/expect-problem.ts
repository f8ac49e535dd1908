import { expect } from 'vitest';
import { ApiProblem } from '../../../core/domain/api-problem.js';
import type { ProblemSlug } from '../../../core/domain/problem-types.js';
import type { TestContext } from './test-context.js';

/**
 * Runs a domain call that must fail with the given problem, and checks that it changed nothing:
 * the data set is deep-equal to before and the store saw no write. Resolves the problem, for
 * assertions on its detail.
 *
 * @example
 * const problem = await expectProblem(tc, () => getUser(tc.ctx, 9), 'not-found');
 * expect(problem.detail).toContain('9');
 */
export async function expectProblem(
  tc: TestContext,
  action: () => unknown,
  slug: ProblemSlug,
): Promise<ApiProblem> {
  const before = structuredClone(tc.store.data);
  const writes = tc.store.writes;
  let caught: unknown;
  try {
    await action();
  } catch (error) {
    caught = error;
  }
  expect(caught, `expected ApiProblem ${slug}`).toBeInstanceOf(ApiProblem);
  const problem = caught as ApiProblem;
  expect(problem.slug).toBe(slug);
  expect(tc.store.data).toEqual(before);
  expect(tc.store.writes).toBe(writes);
  return problem;
}

/**
 * Runs a domain call that must succeed without writing anything.
 *
 * @example
 * await expectNoWrite(tc, () => activateUser(tc.ctx, 2));
 */
export async function expectNoWrite<T>(tc: TestContext, action: () => Promise<T>): Promise<T> {
  const before = structuredClone(tc.store.data);
  const writes = tc.store.writes;
  const result = await action();
  expect(tc.store.data).toEqual(before);
  expect(tc.store.writes).toBe(writes);
  return result;
}
