// Every shell block of the README, run as a user would paste it, so that a README command that
// breaks fails CI (issue 20). Blocks talk to a fresh server started the way `npm start` starts
// it (package.json's start script: file store with the demo data, the demo's rate limits), on a
// free port instead of 3000 and with a store file of its own.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { packageRoot } from '../../spec/spec-path.js';
import { documentedStatuses, onPort, readmeShellBlocks, type ShellBlock } from './readme-blocks.js';

const README = join(packageRoot, 'README.md');
const blocks = readmeShellBlocks(await readFile(README, 'utf8'));
// A block that starts its own server with the contract's default limits may be paced by them.
const BLOCK_TIMEOUT_MS = 8 * 60_000;

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('README shell blocks', () => {
  it('has runnable blocks, and every skipped one says why', () => {
    expect(blocks.filter((b) => b.mode.kind !== 'skip').length).toBeGreaterThan(2);
    for (const b of blocks) if (b.mode.kind === 'skip') expect(b.mode.reason).not.toBe('');
  });

  for (const block of blocks) {
    const name = `line ${block.line} (${block.heading}): ${firstCommand(block.code)}`;
    if (block.mode.kind === 'skip') {
      // Reported as a passing assertion of the reason, not a vitest skip: nothing is hidden.
      it(`${name} is not run: ${block.mode.reason}`, () => expect(block.mode.kind).toBe('skip'));
      continue;
    }
    it(name, () => runBlock(block), BLOCK_TIMEOUT_MS);
  }
});

async function runBlock(block: ShellBlock): Promise<void> {
  const port = await freePort();
  const dir = await mkdtemp(join(tmpdir(), 'apikit-readme-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  if (block.mode.kind === 'fresh-server') {
    const server = spawnGroup(process.execPath, [
      ...npmStartArguments(),
      '--port',
      String(port),
      '--db',
      join(dir, 'db.json'),
    ]);
    cleanups.push(() => stopGroup(server.child));
    await waitForAnswer(`http://127.0.0.1:${port}/healthz`, 30_000, server);
  }

  const code = onPort(block.code, port);
  const shell = spawnGroup('bash', ['-euo', 'pipefail', '-c', code]);
  cleanups.push(() => stopGroup(shell.child));

  if (block.mode.kind === 'serves') {
    await waitForAnswer(`http://127.0.0.1:${port}${block.mode.path}`, 60_000, shell);
    return;
  }
  const exitCode = await shell.exited;
  const context = `README line ${block.line}, run as:\n${code}\n--- stdout\n${shell.out()}\n--- stderr\n${shell.err()}`;
  expect(exitCode, context).toBe(0);
  if (block.mode.kind === 'fresh-server')
    // npm start's limits hold a default conform run without a wait (decision 0100).
    expect(shell.err() + shell.out(), context).not.toMatch(/spent waiting for the target/);
  expect(statusesIn(shell.out(), documentedStatuses(code)), context).toEqual(
    documentedStatuses(code),
  );
}

/** `npm start`'s command after `node`: the script as package.json has it, run by this Node. */
function npmStartArguments(): string[] {
  const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
    scripts: { start: string };
  };
  const [node, ...args] = manifest.scripts.start.split(/\s+/);
  if (node !== 'node') throw new Error(`npm start does not run node: ${manifest.scripts.start}`);
  return args.map((arg) => (arg.startsWith('bin/') ? join(packageRoot, arg) : arg));
}

interface Spawned {
  child: ChildProcess;
  exited: Promise<number | null>;
  out(): string;
  err(): string;
}

/** A child in its own process group, so that the servers a block puts in the background end with it. */
function spawnGroup(command: string, args: string[]): Spawned {
  const child = spawn(command, args, {
    cwd: packageRoot,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: readmeEnvironment(),
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d));
  child.stderr!.on('data', (d: Buffer) => (err += d));
  // 'exit', not 'close': a server the block put in the background keeps the pipes open.
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => setTimeout(() => resolve(code), 100)),
  );
  return { child, exited, out: () => out, err: () => err };
}

/** The user's environment minus apikit's own settings, which would change what a block does. */
function readmeEnvironment(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith('APIKIT_')) delete env[key];
  delete env.PORT;
  return env;
}

/** Ends the whole group (the block's background servers too, after the shell itself exited). */
async function stopGroup(child: ChildProcess): Promise<void> {
  const group = -child.pid!;
  if (!signal(group, 'SIGTERM')) return;
  for (let waited = 0; waited < 5_000 && signal(group, 0); waited += 50) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  signal(group, 'SIGKILL');
}

/** process.kill that answers whether the group still existed. */
function signal(group: number, name: NodeJS.Signals | 0): boolean {
  try {
    process.kill(group, name);
    return true;
  } catch {
    return false;
  }
}

async function waitForAnswer(url: string, timeoutMs: number, process: Spawned): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (process.child.exitCode !== null) {
      throw new Error(`exited ${process.child.exitCode} before ${url} answered:\n${process.err()}`);
    }
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      /* not listening yet */
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(
    `${url} did not answer within ${timeoutMs} ms:\n${process.out()}\n${process.err()}`,
  );
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** The documented statuses found, in order, among the status lines of the real output. */
function statusesIn(output: string, documented: number[]): number[] {
  // Unanchored: curl prints a status line right after a body that has no final newline.
  const seen = [...output.matchAll(/HTTP\/[\d.]+ (\d{3})\b/g)].map((m) => Number(m[1]));
  const found: number[] = [];
  let from = 0;
  for (const status of documented) {
    const at = seen.indexOf(status, from);
    if (at < 0) break;
    found.push(status);
    from = at + 1;
  }
  return found;
}

function firstCommand(code: string): string {
  const line = code.split('\n').find((l) => l.trim() && !l.trim().startsWith('#')) ?? '';
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}
