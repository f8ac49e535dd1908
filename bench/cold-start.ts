import { startProcess, type ProcessOptions } from './start-process.js';
import { freePort } from '../node-runtime/start-prism.js';

/**
 * Milliseconds from spawning a server to its first ready answer (polled every few ms on a fresh
 * connection), then the server is stopped. `options` gets the port picked for it.
 *
 * @example
 * const ms = await coldStart((port) => ({ name: 'serve', command: process.execPath, args: [...], port, readyPath: '/healthz', readyStatus: 200 }));
 */
export async function coldStart(options: (port: number) => ProcessOptions): Promise<number> {
  const port = await freePort();
  const running = await startProcess({ timeoutMs: 30_000, ...options(port), pollMs: 2 });
  await running.stop();
  return running.startMs;
}
