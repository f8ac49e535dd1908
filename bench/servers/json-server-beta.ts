/**
 * json-server 1.0.0-beta.3 as its CLI runs it (its own `createApp` over lowdb 7's JSONFile,
 * logger off, file watching off as under NODE_ENV=production), bound to 127.0.0.1: the beta's
 * CLI binds every interface (its --host only prints). Loaded from the `json-server-beta` alias.
 * `node dist/bench/servers/json-server-beta.js DB_FILE PORT`.
 */
import { Low } from 'lowdb';
import { JSONFile } from 'lowdb/node';
import { createApp } from 'json-server-beta/lib/app.js';
import type { Data } from 'json-server-beta/lib/service.js';

const file = process.argv[2];
const port = Number(process.argv[3]);
if (!file || !Number.isInteger(port)) {
  process.stderr.write('usage: json-server-beta.js DB_FILE PORT\n');
  process.exit(2);
}

const db = new Low<Data>(new JSONFile<Data>(file), {});
await db.read();
const server = createApp(db, { logger: false }).listen(
  port,
  () => process.stdout.write(`json-server 1.0.0-beta.3 listening on http://127.0.0.1:${port}\n`),
  '127.0.0.1',
);
process.once('SIGTERM', () => server.close(() => process.exit(0)));
