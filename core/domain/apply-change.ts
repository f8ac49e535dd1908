import type { Dataset } from './dataset.js';
import type { Store } from './store.js';

/**
 * What a change decided on the data set amounts to: nothing (answer with `unchanged`, write
 * nothing), or an `apply` step that performs it. Every rule is checked while deciding, so
 * `apply` never throws and a refused change leaves the data untouched.
 */
export type Change<T> = { unchanged: T } | { apply: () => T };

/**
 * Runs a change through the store. The decision is first taken on the current data without a
 * write, so refusals and no-ops (PATCH `{}`, activating an ACTIVE user) cost no disk write and
 * keep `updatedAt`; otherwise it is taken again inside `store.write`, judged on the data as it
 * is when the serialized write runs, and applied there.
 *
 * @example
 * return applyChange<UserDto>(ctx.store, (data) => {
 *   const user = requireUser(data, id);
 *   if (user.status === 'ACTIVE') return { unchanged: toUserDto(user) };
 *   return { apply: () => ((user.status = 'ACTIVE'), toUserDto(user)) };
 * });
 */
export async function applyChange<T>(
  store: Store,
  decide: (data: Dataset) => Change<T>,
): Promise<T> {
  const preview = decide(store.data);
  if ('unchanged' in preview) return preview.unchanged;
  return store.write((data) => {
    const change = decide(data);
    return 'unchanged' in change ? change.unchanged : change.apply();
  });
}
