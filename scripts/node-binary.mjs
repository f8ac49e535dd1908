#!/usr/bin/env node
// The `node` executable of another Node major, fetched from the npm registry (the packages
// `node-<platform>-<arch>` that the registry's `node` package installs) into
// $APIKIT_NODE_CACHE, else $XDG_CACHE_HOME/apikit-node, else ~/.cache/apikit-node, as
// <major>/, once, then reused: outside the checkout, so that `npm ci` (which empties
// node_modules) and a fresh clone in CI do not download them again. The consumer tests run the
// installed package under Node 20, 22 and 24 with it (decision 0049); no other host is asked.
//
//   node scripts/node-binary.mjs 22        prints the path of a Node 22 executable
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where the binaries are kept, per major. */
export function nodeCacheDir() {
  return (
    process.env.APIKIT_NODE_CACHE ||
    join(process.env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'apikit-node')
  );
}

/** The path of a `node` of `major` (this very process's when it is that major). */
export function nodeBinary(major) {
  if (Number(process.versions.node.split('.')[0]) === Number(major)) return process.execPath;
  const pkg = `node-${process.platform}-${process.arch}`;
  const dir = join(nodeCacheDir(), String(major));
  const binIn = (folder) =>
    join(folder, 'node_modules', pkg, 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  const bin = binIn(dir);
  if (!existsSync(bin)) {
    // Into a folder of this call's own, then renamed into place: test files running at once
    // may each be the first to ask for a major.
    mkdirSync(nodeCacheDir(), { recursive: true });
    const fresh = mkdtempSync(join(nodeCacheDir(), `.${major}-`));
    try {
      execFileSync(
        'npm',
        [
          'install',
          '--prefix',
          fresh,
          '--no-save',
          '--no-package-lock',
          '--no-audit',
          '--no-fund',
          `${pkg}@${major}`,
        ],
        { stdio: ['ignore', 'ignore', 'inherit'] },
      );
      if (!existsSync(binIn(fresh)))
        throw new Error(`npm installed ${pkg}@${major} but ${binIn(fresh)} is missing`);
      if (!existsSync(bin)) renameSync(fresh, dir);
    } catch (error) {
      // Another call won the rename: its binary is as good as this one.
      if (!existsSync(bin)) throw error;
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  }
  return bin;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(nodeBinary(process.argv[2] ?? '22'));
}
