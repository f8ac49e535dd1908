#!/usr/bin/env node
// The mutation score of the conformance runner (docs/mutation-testing.md, decision 0115):
//
//   npm run mutation -- --seed 7 --count 200      (seed default: $MUTATION_SEED, else the date)
//   npm run mutation -- --seed 7 --only 42        (repeat the 42nd mutation of seed 7)
//
// The harness is TypeScript under test/mutation/; Node 20 runs no .ts, so it is bundled with
// esbuild (packages stay external) into node_modules/.cache/ and started from there.
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outfile = join(root, 'node_modules/.cache/apikit-mutation/mutation-cli.mjs');
await mkdir(join(root, 'node_modules/.cache/apikit-mutation'), { recursive: true });
await esbuild.build({
  entryPoints: [join(root, 'test/mutation/mutation-cli.ts')],
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  outfile,
  logLevel: 'warning',
});
const { main } = await import(pathToFileURL(outfile).href);
process.exitCode = await main(process.argv.slice(2));
