#!/usr/bin/env node
// Writes the consumer fixtures' package-lock.json files again (test/consumers/*/): after a
// change to apikit's dependencies, or to a fixture's package.json. Packs the current build,
// resolves each fixture against it in a scratch folder outside this repository (so that
// nothing resolves from the repository's own node_modules), and keeps the lock without the
// tarball's integrity, which changes with every build (decision 0049). Every folder under
// test/consumers with a package.json is a fixture; name some to write only their locks.
//
//   npm run build && node scripts/consumer-locks.mjs [FIXTURE...]
import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packTarball } from './pack-tarball.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const fixtures = join(root, 'test/consumers');
// A folder of this run's own: two runs at once (one per fixture) must not share one.
const scratch = mkdtempSync(join(tmpdir(), 'apikit-consumer-locks-'));

const all = readdirSync(fixtures).filter(
  (name) =>
    !name.startsWith('.') &&
    statSync(join(fixtures, name)).isDirectory() &&
    existsSync(join(fixtures, name, 'package.json')),
);
const asked = process.argv.slice(2);
const unknown = asked.filter((name) => !all.includes(name));
if (unknown.length > 0) {
  console.error(`not a fixture (test/consumers/NAME/package.json): ${unknown.join(', ')}`);
  process.exit(2);
}

packTarball(join(scratch, '.pack'));
for (const name of asked.length > 0 ? asked : all) {
  const dir = join(fixtures, name);
  const to = join(scratch, name);
  cpSync(join(dir, 'package.json'), join(to, 'package.json'));
  // From the fixture's own lock, so that only what package.json changed is resolved again: a
  // fresh resolution would move every dependency to the registry's newest (and once to a vite
  // whose optional dependency the registry did not serve, so that `npm ci` failed).
  // The tarball's own entry is dropped, so that its dependencies and peers are read again.
  if (existsSync(join(dir, 'package-lock.json'))) {
    const kept = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8'));
    delete kept.packages['node_modules/user-order-apikit'];
    writeFileSync(join(to, 'package-lock.json'), JSON.stringify(kept, null, 2));
  }
  execFileSync('npm', ['install', '--package-lock-only', '--no-audit', '--no-fund'], {
    cwd: to,
    stdio: 'inherit',
  });
  const lock = JSON.parse(readFileSync(join(to, 'package-lock.json'), 'utf8'));
  delete lock.packages['node_modules/user-order-apikit'].integrity;
  writeFileSync(join(dir, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
  console.log(`test/consumers/${name}/package-lock.json written`);
}
rmSync(scratch, { recursive: true, force: true });
