/** Steps that undo a transaction's changes, newest last. */
export type UndoLog = Array<() => void>;

/** Changes to the collections of a data set, each logging its way back. */
export interface Journal {
  undo: UndoLog;
  /** Sets `collection[key]` to `value` (undefined: deletes it). */
  set<T>(collection: Record<string, T>, key: string, value: T | undefined): void;
  /** Deletes every record that matches. */
  deleteWhere<T>(collection: Record<string, T>, matches: (record: T) => boolean): void;
}

/**
 * A journal over an undo log: a transaction that throws runs the log backwards.
 *
 * @example
 * const journal = journaled([]);
 * journal.set(data.users, '5', user);
 */
export function journaled(undo: UndoLog): Journal {
  function set<T>(collection: Record<string, T>, key: string, value: T | undefined): void {
    const had = Object.hasOwn(collection, key);
    const previous = collection[key];
    if (value === undefined) delete collection[key];
    else collection[key] = value;
    undo.push(() => {
      if (had) collection[key] = previous as T;
      else delete collection[key];
    });
  }
  return {
    undo,
    set,
    deleteWhere(collection, matches) {
      for (const key of Object.keys(collection)) {
        const record = collection[key];
        if (record !== undefined && matches(record)) set(collection, key, undefined);
      }
    },
  };
}
