import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../test/run-cli.js';
import { listenError } from './listen-error.js';

// A port that is taken for real: every serving command must say so in one line, exit 2.
let taken: Server;
let port: number;
beforeAll(async () => {
  taken = createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  port = (taken.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

describe('a port in use', () => {
  for (const command of [['serve', '--memory'], ['mock']]) {
    it(`apikit ${command[0]} says so and suggests --port 0 (exit 2)`, async () => {
      const result = await runCli([...command, '--port', String(port)]);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(`port ${port} on 127.0.0.1 is in use; try --port 0`);
    });
  }
});

describe('listenError', () => {
  it('names EACCES and leaves any other error to the caller', () => {
    const denied = Object.assign(new Error('listen EACCES'), { code: 'EACCES' });
    expect(listenError(denied, { host: '0.0.0.0', port: 80 })?.message).toBe(
      'no permission to listen on 0.0.0.0:80',
    );
    expect(listenError(new Error('other'), { host: 'h', port: 1 })).toBeUndefined();
  });
});
