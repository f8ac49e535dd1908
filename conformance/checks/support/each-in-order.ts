import type { RunContext } from '../../run-context.js';

/**
 * `fn` over `items` side by side with the run's concurrency (`ctx.each`), the answers kept in
 * the items' order, so that what a check reports first does not depend on which request came
 * back first. An item left unsent because the run stopped has no answer (undefined).
 *
 * Why: the cases of one operation used to go one after the other, and an operation with many
 * cases (a login, each answered only after a password hash) was the long pole of its check.
 *
 * @example
 * const answers = await eachInOrder(ctx, calls, (call) => ctx.call(op, call, credential));
 */
export async function eachInOrder<T, R>(
  ctx: RunContext,
  items: readonly T[],
  fn: (item: T) => Promise<R>,
): Promise<(R | undefined)[]> {
  const answers: (R | undefined)[] = Array.from({ length: items.length }, () => undefined);
  await ctx.each(
    items.map((item, index) => ({ item, index })),
    async ({ item, index }) => {
      answers[index] = await fn(item);
    },
  );
  return answers;
}
