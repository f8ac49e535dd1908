import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { nodeBinary } from '../../scripts/node-binary.mjs';
import { packTarball } from '../../scripts/pack-tarball.mjs';

/** What a step of a fixture printed, with the command line, for a failure message. */
export type StepResult = Omit<SpawnSyncReturns<string>, 'output'> & { output: string };

/**
 * Copies a consumer fixture to `to` (a folder outside this repository, so that nothing resolves
 * from the repository's own node_modules), without what a run leaves behind, and drops the
 * tarball's integrity from its lock: the lock pins everything but the tarball's bytes, which
 * change with every build (decision 0049).
 */
export function copyFixture(from: string, to: string): void {
  cpSync(from, to, {
    recursive: true,
    filter: (source) => !/[\\/](node_modules|dist|reports)$/.test(source),
  });
  const lockPath = join(to, 'package-lock.json');
  const lock = JSON.parse(readFileSync(lockPath, 'utf8')) as {
    packages: Record<string, Record<string, unknown>>;
  };
  delete lock.packages['node_modules/user-order-apikit']!['integrity'];
  writeFileSync(lockPath, JSON.stringify(lock, null, 2));
}

/**
 * The environment of a fixture's command under Node `nodeMajor` (first on PATH, so npm and npx
 * run on it too), without the harness's own Vitest variables.
 */
export function childEnv(nodeMajor: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env))
    if (!/^(VITEST|TEST$|NODE_OPTIONS$|NODE_ENV$)/.test(key)) env[key] = value;
  const bin = dirname(nodeBinary(nodeMajor));
  return { ...env, PATH: `${bin}:${env['PATH']}` };
}

/** Runs a command in `cwd`; the result carries all its output, colours stripped. */
export function runStep(
  cwd: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): StepResult {
  const result = spawnSync(command, args, {
    cwd,
    env,
    encoding: 'utf8',
    timeout: timeoutMs,
    maxBuffer: 64 * 1024 * 1024,
  });
  const plain = (text: string | null) => (text ?? '').replace(/\x1b\[[0-9;]*m/g, '');
  result.stdout = plain(result.stdout);
  result.stderr = plain(result.stderr);
  const output = `$ ${command} ${args.join(' ')} (exit ${result.status}${result.signal ? `, ${result.signal}` : ''})\n${result.stdout}\n${result.stderr}`;
  return { ...result, output };
}

/** The line a fixture's start-up test prints: ms to the first answer, and to import the mocks. */
export const STARTUP_LINE = /apikit-startup: (\d+) ms to the first answer \(import (\d+) ms\)/;

/**
 * Packs the current build into `work/.pack` (a folder of the caller's own run), copies the
 * fixture `from` to `work/<its name>` and installs it there with `npm ci` under Node
 * `nodeMajor`; returns the installed folder. Throws with npm's output when the install fails.
 */
export function installFixture(
  from: string,
  work: string,
  nodeMajor: number,
  timeoutMs: number,
): string {
  packTarball(join(work, '.pack'));
  const app = join(work, basename(from));
  copyFixture(from, app);
  const installed = runStep(
    app,
    'npm',
    ['ci', '--no-audit', '--no-fund'],
    childEnv(nodeMajor),
    timeoutMs,
  );
  if (installed.status !== 0)
    throw new Error(`npm ci in ${basename(from)} failed:\n${installed.output}`);
  return app;
}

/** One dependency field of apikit: as the fixture's lock records it, as package.json declares it. */
export interface LockedField {
  field: 'dependencies' | 'peerDependencies' | 'peerDependenciesMeta';
  locked: unknown;
  declared: unknown;
}

/**
 * apikit's dependency fields in the lock of the fixture `fixtureDir` (its source folder, not an
 * installed copy) beside those of the package.json in `rootDir`: a test expects each pair equal,
 * or `node scripts/consumer-locks.mjs` is due.
 */
export function lockedApikitFields(fixtureDir: string, rootDir: string): LockedField[] {
  const manifest = JSON.parse(readFileSync(join(rootDir, 'package.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  const lock = JSON.parse(readFileSync(join(fixtureDir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, Record<string, unknown>>;
  };
  const entry = lock.packages['node_modules/user-order-apikit'] ?? {};
  return (['dependencies', 'peerDependencies', 'peerDependenciesMeta'] as const).map((field) => ({
    field,
    locked: entry[field],
    declared: manifest[field],
  }));
}
