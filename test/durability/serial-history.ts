/** One acknowledged write that set a single field, with the state the server answered. */
export interface FieldWrite<F extends string> {
  field: F;
  value: unknown;
  /** The whole resource as the server answered this write (its state right after it). */
  after: Record<F, unknown>;
}

/**
 * Finds a serial order of acknowledged single-field writes that explains everything the
 * clients saw: applied one at a time to `initial`, in the returned order, they pass through
 * each write's `after` state exactly and end at `final`. Throws, saying where, when no order
 * does: an update was lost, or an answer showed a state that never existed. Every value
 * written must be unique per field and differ from the initial one (so states are unique).
 *
 * Walks back from `final`: the state before a write on `f` equals its answer but for `f`.
 * Writes on the same field with nothing observed between them may come in any order, so those
 * are taken first; the result is then replayed forward as proof.
 *
 * @example
 * const order = explainAsSerialHistory({ name: 'a', age: 1 }, writes, finalState);
 */
export function explainAsSerialHistory<F extends string>(
  initial: Record<F, unknown>,
  writes: readonly FieldWrite<F>[],
  final: Record<F, unknown>,
): FieldWrite<F>[] {
  const fields = Object.keys(initial) as F[];
  const sameBut = (a: Record<F, unknown>, b: Record<F, unknown>, except?: F) =>
    fields.every((field) => field === except || a[field] === b[field]);
  const show = (state: Record<F, unknown>) => JSON.stringify(state);
  for (const write of writes) {
    if (write.after[write.field] !== write.value)
      throw new Error(`the answer to ${write.field}=${write.value} shows ${show(write.after)}`);
  }
  const remaining = new Set(writes);
  const order: FieldWrite<F>[] = [];
  let writer = writes.find((write) => sameBut(write.after, final));
  if (writer === undefined && writes.length > 0)
    throw new Error(`the final state ${show(final)} is no write's answer: a write was lost`);
  while (writer !== undefined) {
    order.unshift(writer);
    remaining.delete(writer);
    const { field, after } = writer;
    const before = [...remaining].filter((write) => sameBut(write.after, after, field));
    writer = before.find((write) => write.field === field) ?? before[0];
    if (writer === undefined && remaining.size > 0) {
      throw new Error(
        `no write explains the state before ${field}=${String(after[field])} ` +
          `(${show(after)}); ${remaining.size} writes left unexplained`,
      );
    }
  }
  // Replay forward: the proof that the order explains every answer and the final state.
  const state = { ...initial };
  for (const write of order) {
    state[write.field] = write.value;
    if (!sameBut(state, write.after))
      throw new Error(
        `replay reached ${show(state)} where the server answered ${show(write.after)}`,
      );
  }
  if (!sameBut(state, final))
    throw new Error(`replay ends at ${show(state)}, the server holds ${show(final)}`);
  return order;
}
