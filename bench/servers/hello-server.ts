/**
 * The baselines: `node dist/bench/servers/hello-server.js node|express PORT` answers every
 * request with the same small JSON, from bare node:http or from Express 5 (the framework
 * ceiling). Loopback only.
 */
import { createServer } from 'node:http';

const HELLO = { hello: 'world' };
const kind = process.argv[2];
const port = Number(process.argv[3]);

if ((kind !== 'node' && kind !== 'express') || !Number.isInteger(port)) {
  process.stderr.write('usage: hello-server.js node|express PORT\n');
  process.exit(2);
}

let handler: Parameters<typeof createServer>[1];
if (kind === 'node') {
  const body = JSON.stringify(HELLO);
  const length = String(Buffer.byteLength(body));
  handler = (_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': length });
    res.end(body);
  };
} else {
  // Imported only here: the node:http baseline's cold start must not pay for Express.
  const { default: express } = await import('express');
  const app = express();
  app.get('/', (_req, res) => {
    res.json(HELLO);
  });
  handler = app;
}

const server = createServer(handler);
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`${kind} hello server listening on http://127.0.0.1:${port}\n`);
});
process.once('SIGTERM', () => server.close(() => process.exit(0)));
