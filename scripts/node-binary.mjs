#!/usr/bin/env node
// The `node` executable of another Node major, fetched from the npm registry (the packages
// `node-<platform>-<arch>` that the registry's `node` package installs) into
// node_modules/.cache/apikit-node/<major>/ once, then reused. The consumer tests run the
// installed package under Node 20, 22 and 24 with it (decision 0049); no other host is asked.
//
//   node scripts/node-binary.mjs 22        prints the path of a Node 22 executable
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The path of a `node` of `major` (this very process's when it is that major). */
export function nodeBinary(major) {
  if (Number(process.versions.node.split('.')[0]) === Number(major)) return process.execPath;
  const pkg = `node-${process.platform}-${process.arch}`;
  const dir = join(root, 'node_modules/.cache/apikit-node', String(major));
  const bin = join(
    dir,
    'node_modules',
    pkg,
    'bin',
    process.platform === 'win32' ? 'node.exe' : 'node',
  );
  if (!existsSync(bin)) {
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        dir,
        '--no-save',
        '--no-package-lock',
        '--no-audit',
        '--no-fund',
        `${pkg}@${major}`,
      ],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    if (!existsSync(bin)) throw new Error(`npm installed ${pkg}@${major} but ${bin} is missing`);
  }
  return bin;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(nodeBinary(process.argv[2] ?? '22'));
}
