import type { InteractionFile } from '../spec/interactions/interaction-file.js';
import { mergeInteractionFiles } from '../spec/interactions/merge-interactions.js';
import { parseInteractionFile } from '../spec/interactions/parse-interaction-file.js';
import { serializeInteractionFile } from '../spec/interactions/serialize-interactions.js';
import { nodeFileSystem, nodeProcess, type NodeFileSystem } from './node-process.js';

/** A lock older than this was left by a process that died holding it. */
const STALE_LOCK_MS = 10_000;
/** How long a writer waits for the lock before it gives up. */
const LOCK_TIMEOUT_MS = 30_000;

/** Blocks the thread for `ms` (the writer is synchronous: a test may end right after a request). */
function sleep(ms: number): void {
  if (typeof SharedArrayBuffer === 'function' && typeof Atomics?.wait === 'function') {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
    return;
  }
  const until = Date.now() + ms;
  while (Date.now() < until); // where Atomics.wait is not allowed
}

function errorCode(error: unknown): string | undefined {
  return (error as { code?: string } | null)?.code;
}

/**
 * Runs `work` holding the lock `lock` (a directory: `mkdir` is atomic on every file system), the
 * same for every process and worker of the machine. A lock left by a process that died holding
 * it (older than 10 s: a holder keeps it for milliseconds) is taken over.
 */
function withLock<T>(fs: NodeFileSystem, lock: string, work: () => T): T {
  const start = Date.now();
  for (let attempt = 0; ; attempt++) {
    try {
      fs.mkdirSync(lock);
      break;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
    let age = 0;
    try {
      age = Date.now() - fs.statSync(lock).mtimeMs;
    } catch {
      continue; // released meanwhile
    }
    if (age > STALE_LOCK_MS) {
      fs.rmSync(lock, { recursive: true, force: true });
      continue;
    }
    if (Date.now() - start > LOCK_TIMEOUT_MS)
      throw new Error(`${lock} is held by another process for more than ${LOCK_TIMEOUT_MS} ms`);
    sleep(Math.min(2 + attempt, 25));
  }
  try {
    return work();
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** The file's text, or undefined when there is no file yet. */
function readIfThere(fs: NodeFileSystem, path: string): string | undefined {
  try {
    return fs.readFileSync(path, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** The folder of a path ('' for a bare file name). */
function folderOf(path: string): string {
  const at = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return at <= 0 ? '' : path.slice(0, at);
}

/**
 * Merges a recording into the file `path` (relative to the working directory), safely beside
 * every other test file, worker and process doing the same: under a lock (`path.lock`, a
 * directory), read, merge by key (tests together, one example kept: the merge does not
 * depend on who came first), and replace the file atomically (a temporary file beside it,
 * renamed over it), so a reader never sees half a file. Writes nothing when the merge changes
 * nothing. Synchronous: a test process may end right after its last request. Node only; for a
 * recording made in a browser, e.g. from Playwright:
 *
 * @example
 * const recording = await page.evaluate(() => window.__apikitInteractions());
 * writeInteractions('interactions.json', recording);
 */
export function writeInteractions(path: string, recording: InteractionFile): void {
  const fs = nodeFileSystem();
  if (!fs) throw new Error('writeInteractions needs Node (20.16 or later): it writes a file');
  const folder = folderOf(path);
  if (folder) fs.mkdirSync(folder, { recursive: true });
  withLock(fs, `${path}.lock`, () => {
    const before = readIfThere(fs, path);
    let merged = recording;
    if (before !== undefined && before.trim() !== '') {
      merged = mergeInteractionFiles(parseInteractionFile(before, path), recording);
    }
    const text = serializeInteractionFile(merged);
    if (text === before) return;
    const temporary = `${path}.${nodeProcess()?.pid ?? 0}-${Math.random().toString(36).slice(2)}.tmp`;
    fs.writeFileSync(temporary, text);
    fs.renameSync(temporary, path);
  });
}
