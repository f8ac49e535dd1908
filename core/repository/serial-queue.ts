/**
 * Runs tasks one at a time in the order they were queued: the in-memory repository's
 * transactions, so that no two interleave at their awaits.
 *
 * @example
 * const run = serialQueue();
 * await run(async () => change());
 */
export function serialQueue(): <T>(task: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(task: () => Promise<T>): Promise<T> => {
    const result = tail.then(task);
    tail = result.then(ignore, ignore);
    return result;
  };
}

function ignore(): void {}
