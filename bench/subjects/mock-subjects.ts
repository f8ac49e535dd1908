import { join } from 'node:path';
import { prismBinPath } from '../../node-runtime/start-prism.js';
import { REPO_ROOT } from '../repo-root.js';
import { ADMIN, BENCH_JWT_SECRET } from './reference-server-subject.js';
import { PRODUCTION_ENV, startLoggedIn, startOnFreePort, type Subject } from './subject.js';

/**
 * `apikit mock`: the MSW handlers over HTTP, auth enforced (logged in as the admin), every
 * answer validated against the spec as the mocks always do.
 */
export function startApikitMock(cpuProfileDir?: string): Promise<Subject> {
  return startLoggedIn(
    'apikit mock (MSW)',
    (port) => [
      join(REPO_ROOT, 'bin/apikit.js'),
      'mock',
      '--port',
      String(port),
      '--jwt-secret',
      BENCH_JWT_SECRET,
    ],
    ADMIN,
    cpuProfileDir ? { dir: cpuProfileDir, name: 'mock' } : undefined,
  );
}

/**
 * `prism mock` on the same spec: Prism 5.14's own CLI, static examples, as Prism users run it
 * and as the requests reached it before `apikit mock --engine prism` put a front before it
 * (decision 0059): the peer measured, not apikit's front. Prism accepts any bearer token.
 */
export async function startPrismMock(): Promise<Subject> {
  const name = 'prism mock';
  const headers = { Authorization: 'Bearer bench' };
  const running = await startOnFreePort((port) => ({
    name,
    command: process.execPath,
    args: prismArgs(port),
    env: PRODUCTION_ENV,
    port,
    readyPath: '/users/1',
    readyHeaders: headers,
    readyStatus: 200,
  }));
  return { name, process: running, url: running.url, headers, stop: running.stop };
}

/** The arguments that start Prism's own CLI on the contract (also its cold start). */
export function prismArgs(port: number): string[] {
  return [
    prismBinPath(),
    'mock',
    '-h',
    '127.0.0.1',
    '-p',
    String(port),
    join(REPO_ROOT, 'spec/openapi.yaml'),
  ];
}
