import type { Store } from '../domain/store.js';
import { randomUUID } from '../web-crypto.js';
import { datasetReader } from './dataset-reader.js';
import { datasetWriter, type UndoLog } from './dataset-writer.js';
import type { Repository } from './repository.js';
import { serialQueue } from './serial-queue.js';

/**
 * The repository over a data set held in memory and made durable by a {@link Store} (the JSON
 * file, or memory alone for the mocks and tests). Transactions run one at a time; each applies
 * its changes as it goes, undoes them if it throws, and, when it changed anything, joins the
 * store's next group commit, resolving once that is durable. A transaction that changed
 * nothing writes nothing.
 *
 * Why one at a time is enough: the work of a transaction awaits only this repository's
 * methods, which settle at once, so it runs from start to end within one turn of the event
 * loop, and no flush (a timer or I/O callback) can snapshot it half done. A transaction that
 * awaits anything else breaks this; it is caught and refused (see `transact`).
 *
 * Idempotency-Key claims name this repository as their owner: one process holds a data set,
 * so a claim another owner left in it is from a process that died mid-request (decision 0109).
 *
 * @example
 * const repository = createDatasetRepository(await createDurableStore({ adapter, seed }));
 * const id = await repository.transact((tx) => tx.nextId('users'));
 */
export function createDatasetRepository(store: Store): Repository {
  const data = () => store.data;
  const queue = serialQueue();
  const commits = commitBatcher(store, queue);
  const owner = randomUUID();
  let closed = false;
  return {
    ...datasetReader(data),
    snapshot: (work) => work(datasetReader(data)),
    async transact(work) {
      if (closed) await store.write(noop); // rejects as the closed store does
      const { result, durable } = await queue(async () => {
        data(); // a store that cannot be read (a failed save) refuses the transaction: 503
        const undo: UndoLog = [];
        let crossedTurn = false;
        const sentinel = setTimeout(() => (crossedTurn = true), 0);
        try {
          const value = await work(datasetWriter(data, undo, owner));
          if (crossedTurn) throw new Error(CROSSED_TURN);
          return { result: value, durable: undo.length > 0 ? commits.join() : undefined };
        } catch (error) {
          for (let i = undo.length - 1; i >= 0; i -= 1) undo[i]?.();
          throw error;
        } finally {
          clearTimeout(sentinel);
        }
      });
      await durable;
      return result;
    },
    async close() {
      closed = true;
      await queue(async () => undefined);
      await store.close();
    },
  };
}

/**
 * Makes the transactions committed since the last save durable with one `store.write`: the
 * save is itself a task of the queue, so it starts when no transaction is half done, after
 * every transaction queued before it (50 concurrent creates: one or two saves, not 50).
 */
function commitBatcher(store: Store, queue: ReturnType<typeof serialQueue>) {
  let waiting: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  return {
    join(): Promise<void> {
      const joined = new Promise<void>((resolve, reject) => waiting.push({ resolve, reject }));
      if (waiting.length === 1) {
        void queue(async () => {
          const batch = waiting;
          waiting = [];
          store.write(noop).then(
            () => batch.forEach((commit) => commit.resolve()),
            (error: unknown) => batch.forEach((commit) => commit.reject(error)),
          );
        });
      }
      return joined;
    },
  };
}

const CROSSED_TURN =
  'an in-memory transaction awaited something other than the repository (crypto, I/O, a timer): ' +
  'do that before the transaction';

function noop(): void {}
