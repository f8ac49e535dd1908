#!/usr/bin/env node
// Packs apikit as npm would publish it, into test/consumers/.pack/apikit.tgz (a fixed name, so
// that the consumer fixtures' lock files, which depend on `file:../.pack/apikit.tgz`, stay
// valid). Expects a fresh `npm run build`; runs no npm script itself (decision 0049).
//
// Why a staging folder rather than `npm pack` in the checkout: scripts/build-cli.mjs keeps the
// chunks of earlier builds in dist/cli for a day (a running server may still import them), and
// `files` cannot tell those from the current ones. The staging copy holds only the chunks that
// the current entries reach.
//
//   node scripts/pack-tarball.mjs [--out DIR]      prints the tarball's path
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outIndex = process.argv.indexOf('--out');
const outDir = outIndex > 0 ? process.argv[outIndex + 1] : join(root, 'test/consumers/.pack');

/** The files of dist/cli that its entries import, directly or through other chunks. */
export function reachableCliFiles(cliDir, entries = ['cli.js', 'server.js', 'conform.js']) {
  const seen = new Set();
  const queue = [...entries];
  while (queue.length > 0) {
    const name = queue.pop();
    if (seen.has(name)) continue;
    if (!existsSync(join(cliDir, name))) {
      // An entry must exist; other names may be text inside the bundled packages' code.
      if (entries.includes(name)) throw new Error(`dist/cli/${name} is missing: run npm run build`);
      continue;
    }
    seen.add(name);
    const source = readFileSync(join(cliDir, name), 'utf8');
    for (const match of source.matchAll(/(?:from|import)\s*\(?\s*["']\.\/([\w.-]+\.js)["']/g))
      queue.push(match[1]);
  }
  return seen;
}

export function packTarball(destination = outDir) {
  // A stage of this call's own: the consumer tests pack at the same time.
  mkdirSync(join(root, 'node_modules/.cache/apikit-pack'), { recursive: true });
  const stage = mkdtempSync(join(root, 'node_modules/.cache/apikit-pack/stage-'));
  const cliDir = join(root, 'dist/cli');
  const keep = reachableCliFiles(cliDir);
  for (const entry of ['package.json', 'README.md', 'LICENSE', 'bin/apikit.js', 'spec', 'dist']) {
    const from = join(root, entry);
    if (!existsSync(from)) continue;
    cpSync(from, join(stage, entry), {
      recursive: true,
      filter: (source) =>
        dirname(source) !== cliDir ||
        keep.has(source.slice(cliDir.length + 1).replace(/\.map$/, '')),
    });
  }
  publishManifest(join(stage, 'package.json'));
  mkdirSync(destination, { recursive: true });
  const json = execFileSync(
    'npm',
    ['pack', '--ignore-scripts', '--json', '--pack-destination', destination],
    { cwd: stage, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const [{ filename, files, size, unpackedSize }] = JSON.parse(json);
  const tarball = join(destination, 'apikit.tgz');
  renameSync(join(destination, filename), tarball);
  rmSync(stage, { recursive: true, force: true });
  return { tarball, files: files.map((f) => f.path), size, unpackedSize };
}

/**
 * The manifest as published: without the scripts and devDependencies, which serve this
 * checkout only. npm 11 lists every installed package's `prepare` among the install scripts
 * a user has to approve, although npm never runs it for a published package.
 */
function publishManifest(path) {
  const manifest = JSON.parse(readFileSync(path, 'utf8'));
  delete manifest.scripts;
  delete manifest.devDependencies;
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { tarball, files, size, unpackedSize } = packTarball();
  console.log(
    `${tarball}: ${files.length} files, ${(size / 1e6).toFixed(1)} MB packed, ${(unpackedSize / 1e6).toFixed(1)} MB unpacked`,
  );
}
