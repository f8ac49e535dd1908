import { Memory, type Adapter } from 'lowdb';

/**
 * lowdb's `Memory` adapter, but holding a copy: it stores the data as JSON text and parses a
 * fresh object on every read. lowdb's own keeps the very object it was given, which is the
 * store's live data, so a "rollback" to it would undo nothing. JSON (rather than
 * structuredClone) also makes it lose exactly what the file would lose (undefined, Dates
 * become strings), so tests on memory behave like the server on disk.
 *
 * @example
 * const store = await createDurableStore({ adapter: new MemoryAdapter(), seed: demoDataset });
 */
export class MemoryAdapter<T> implements Adapter<T> {
  readonly #text = new Memory<string>();

  async read(): Promise<T | null> {
    const text = await this.#text.read();
    return text === null ? null : (JSON.parse(text) as T);
  }

  write(data: T): Promise<void> {
    // Serialized before returning: the snapshot is the data at the moment of the call.
    return this.#text.write(JSON.stringify(data));
  }
}
