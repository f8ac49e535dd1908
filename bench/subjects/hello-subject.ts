import { fileURLToPath } from 'node:url';
import { PRODUCTION_ENV, startOnFreePort, type Subject } from './subject.js';

const HELLO_SERVER = fileURLToPath(new URL('../servers/hello-server.js', import.meta.url));

/**
 * A baseline: bare node:http or Express 5 answering `{"hello":"world"}` on every path.
 *
 * @example
 * const express = await startHelloSubject('express');
 */
export async function startHelloSubject(kind: 'node' | 'express'): Promise<Subject> {
  const name = kind === 'node' ? 'node:http hello' : 'Express 5 hello';
  const process_ = await startOnFreePort((port) => ({
    name,
    command: process.execPath,
    args: [HELLO_SERVER, kind, String(port)],
    env: PRODUCTION_ENV,
    port,
    readyPath: '/',
    readyStatus: 200,
  }));
  return { name, process: process_, url: process_.url, headers: {}, stop: process_.stop };
}

/** The arguments that start a hello server on `port` (cold-start baseline). */
export function helloCommand(kind: 'node' | 'express', port: number): string[] {
  return [HELLO_SERVER, kind, String(port)];
}
