import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Dataset } from '../core/domain/dataset.js';
import { DurableJsonFile } from '../reference-server/store/durable-json-file.js';
import { FailingAdapter } from './support/store/failing-adapter.js';
import { startTestServer, type TestServer } from './start-test-server.js';

/** A test server on the real file store, with the disk's writes failing on demand. */
export interface FileTestServer {
  /** The temp folder holding the store. */
  dir: string;
  dbFile: string;
  /** The file store wrapped in FailingAdapter: tell it to fail, or count its flushes. */
  disk: FailingAdapter<Dataset>;
  server: TestServer;
  /** Closes the server and removes the folder. */
  close(): Promise<void>;
}

/**
 * Starts the reference server in-process on a DurableJsonFile in a fresh temp folder, wrapped
 * in FailingAdapter so that a test can make the disk refuse writes (or only count flushes).
 *
 * @example
 * const { server, disk, dbFile, close } = await startFileTestServer('apikit-disk-faults-');
 */
export async function startFileTestServer(prefix: string): Promise<FileTestServer> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const dbFile = join(dir, 'db.json');
  const disk = new FailingAdapter<Dataset>(new DurableJsonFile(dbFile));
  const server = await startTestServer({ adapter: disk });
  return {
    dir,
    dbFile,
    disk,
    server,
    close: async () => {
      await server.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
