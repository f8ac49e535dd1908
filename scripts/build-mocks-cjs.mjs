#!/usr/bin/env node
// Bundles `user-order-apikit/mocks` once more as CommonJS, for the `require` condition of its
// export: dist/mocks/create-mock-api.cjs, typed by create-mock-api.d.cts (decision 0105).
// Why: Jest runs test files as CommonJS, and without a transform it cannot load an ES module
// from node_modules (an ESM-only package fails at its first `import`). The bundle inlines every
// dependency of the mocks (ajv, yaml, lowdb, the contract) so that Jest resolves nothing of ours
// but msw, which stays external: the app's own msw instance is the one the handlers belong to.
// Built for no platform in particular, like the ES module: no Node built-in may be in it.
//
//   node scripts/build-mocks-cjs.mjs        (part of npm run build, after tsc)
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = 'dist/mocks/create-mock-api.js';
const outfile = 'dist/mocks/create-mock-api.cjs';
/** What the bundle may still require: the app's msw (its entries, as `msw` itself names them). */
const EXTERNAL = ['msw'];

export async function buildMocksCjs() {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'neutral',
    // yaml's own `default` export is its platform-free build; ajv and lowdb name `main` only.
    mainFields: ['module', 'main'],
    target: ['node20.19'],
    external: EXTERNAL,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
  });
  const required = Object.values(result.metafile.outputs)
    .flatMap((output) => output.imports)
    .filter((imported) => imported.external)
    .map((imported) => imported.path);
  const stray = required.filter((path) => !EXTERNAL.includes(path));
  if (stray.length > 0)
    throw new Error(`${outfile} would require ${stray.join(', ')}: only msw may stay external`);
  // The types are the ES module's: a declaration file of the CommonJS flavour that says so.
  await writeFile(
    `${root}/dist/mocks/create-mock-api.d.cts`,
    "export * from './create-mock-api.js';\n",
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    await buildMocksCjs();
  } catch (error) {
    if (!error?.errors) console.error(error);
    process.exitCode = 1;
  }
}
