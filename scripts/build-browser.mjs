#!/usr/bin/env node
// Bundles the browser example of the MSW mocks (examples/browser/app.ts) with esbuild into
// examples/browser/dist/ (git-ignored: dist/ is ignored everywhere). The mocks core must
// run in a browser, so the bundle is built for platform "browser": a Node built-in (`node:fs`)
// anywhere in the import graph fails the build, and esbuild's error names the importing file.
//
//   node scripts/build-browser.mjs            (npm run build:browser)
//
// Prints one JSON line: { outfile, bytes, gzipBytes, packages } (packages: bytes per package).
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const entry = 'examples/browser/app.ts';
const outfile = 'examples/browser/dist/app.js';

/** Bytes of the output per npm package (or per project folder). */
function bytesByPackage(metafile) {
  const [output] = Object.values(metafile.outputs).filter((o) => o.entryPoint);
  const sizes = {};
  for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
    const parts = file.split('/');
    const at = parts.lastIndexOf('node_modules');
    const key =
      at >= 0
        ? parts.slice(at + 1, parts[at + 1].startsWith('@') ? at + 3 : at + 2).join('/')
        : parts.slice(0, Math.min(parts.length - 1, 2)).join('/') || file;
    sizes[key] = (sizes[key] ?? 0) + bytesInOutput;
  }
  return Object.fromEntries(Object.entries(sizes).sort(([, a], [, b]) => b - a));
}

export async function buildBrowserExample() {
  const result = await esbuild.build({
    absWorkingDir: root,
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    minify: true,
    sourcemap: true,
    metafile: true,
    legalComments: 'linked',
    logLevel: 'warning',
  });
  await writeFile(`${root}/examples/browser/dist/meta.json`, JSON.stringify(result.metafile));
  const code = await readFile(`${root}/${outfile}`);
  return {
    outfile,
    bytes: code.length,
    gzipBytes: gzipSync(code).length,
    packages: bytesByPackage(result.metafile),
  };
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    console.log(JSON.stringify(await buildBrowserExample()));
  } catch (error) {
    // esbuild has already printed its errors (with the importing file) to stderr.
    if (!error?.errors) console.error(error);
    process.exitCode = 1;
  }
}
