import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../repo-root.js';
import { PRODUCTION_ENV, startOnFreePort, type Subject } from './subject.js';

const JSON_SERVER_017 = join(REPO_ROOT, 'node_modules/json-server-017/lib/cli/bin.js');
const JSON_SERVER_BETA = fileURLToPath(new URL('../servers/json-server-beta.js', import.meta.url));

/**
 * json-server 0.17.4 (lowdb 1 FileAsync, Express 4) through its own CLI on `dbFile`, quiet.
 * It runs in the file's folder: its snapshot folder (`.`) must exist there.
 */
export async function startJsonServer017(dbFile: string): Promise<Subject> {
  const name = 'json-server 0.17';
  const running = await startOnFreePort((port) => ({
    name,
    command: process.execPath,
    args: [JSON_SERVER_017, '--port', String(port), '--host', '127.0.0.1', '--quiet', dbFile],
    cwd: dirname(dbFile),
    env: PRODUCTION_ENV,
    port,
    readyPath: '/users/1',
    readyStatus: 200,
  }));
  return { name, process: running, url: running.url, headers: {}, stop: running.stop };
}

/**
 * json-server 1.0.0-beta.3 (lowdb 7, tinyhttp) on `dbFile` (see servers/json-server-beta.ts).
 * Under NODE_ENV=production its static handler (sirv) reads `./public` at start and throws when
 * the folder is missing, so an empty one is made beside the file.
 */
export async function startJsonServerBeta(dbFile: string): Promise<Subject> {
  const name = 'json-server 1.0-beta';
  await mkdir(join(dirname(dbFile), 'public'), { recursive: true });
  const running = await startOnFreePort((port) => ({
    name,
    command: process.execPath,
    args: [JSON_SERVER_BETA, dbFile, String(port)],
    cwd: dirname(dbFile),
    env: PRODUCTION_ENV,
    port,
    readyPath: '/users/1',
    readyStatus: 200,
  }));
  return { name, process: running, url: running.url, headers: {}, stop: running.stop };
}
