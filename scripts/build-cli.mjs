#!/usr/bin/env node
// Bundles the compiled CLI (dist/bin/cli.js, written by tsc just before) with esbuild into
// dist/cli/: one ES module per lazily loaded command, the npm packages they import inlined.
// Why: `apikit serve`'s cold start is budgeted at 300 ms (issue 6), and a third of it went on
// Node resolving, stat-ing and reading some 400 module files one by one (decision 0032). The
// bundle runs the very code tsc emitted; dist/bin/cli.js stays for anyone importing it.
//
//   node scripts/build-cli.mjs            (part of npm run build)
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { lazyExpressDependencies } from './lazy-dependencies.mjs';
import { oneLazyStringWidth } from './lazy-string-width.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

const outdir = 'dist/cli';

/**
 * Left to Node's own loader:
 * - the TypeScript compiler behind `apikit spec types` (11 MB; only that command loads it);
 * - iconv-lite: 540 KB of code-page tables that V8 would have to scan at every start, where
 *   iconv-lite itself loads them only for a body in another charset;
 * - mime-db: Node reads its JSON with JSON.parse, faster than V8 parses the same object as code.
 */
const EXTERNAL = ['typescript', 'openapi-typescript', 'iconv-lite', 'mime-db'];

/**
 * yargs finds its locales, and the package.json that `--version` reads, from its own file's
 * `import.meta.url` (lib/platform-shims/esm.mjs). Inside the bundle that URL would name
 * dist/cli/, so the shim gets its real location instead, relative to the bundle (both stay
 * where `npm install` put them: the bundle is built in place by `prepare`).
 */
const yargsShimLocation = {
  name: 'yargs-shim-location',
  setup(build) {
    build.onLoad(
      { filter: /[\\/]yargs[\\/]lib[\\/]platform-shims[\\/]esm\.mjs$/ },
      async (args) => {
        const source = await readFile(args.path, 'utf8');
        const fromBundle = relative(join(root, outdir), args.path).split(sep).join('/');
        const location = `new URL(${JSON.stringify(fromBundle)}, import.meta.url)`;
        if (!source.includes('import.meta.url'))
          throw new Error(`${args.path}: no import.meta.url`);
        return { contents: source.replaceAll('import.meta.url', location), loader: 'js' };
      },
    );
  },
};

/** How long chunks of an earlier build stay beside the current one (see buildCli). */
const OLD_CHUNKS_KEPT_MS = 24 * 3600 * 1000;

export async function buildCli() {
  const target = join(root, outdir);
  const fresh = `${target}.new-${process.pid}`;
  await rm(fresh, { recursive: true, force: true });
  await esbuild.build({
    absWorkingDir: root,
    // The package's Node entries are bundled too, so that `user-order-apikit/server` and `user-order-apikit/conform`
    // need none of the CLI's packages installed (decision 0048); the mocks stay tsc's output.
    entryPoints: {
      cli: 'dist/bin/cli.js',
      server: 'dist/reference-server/create-server.js',
      conform: 'dist/conformance/index.js',
    },
    outdir: fresh,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: ['node20.19'],
    external: EXTERNAL,
    plugins: [yargsShimLocation, oneLazyStringWidth(root), lazyExpressDependencies(root)],
    // CommonJS packages inside an ES module bundle still call require() for Node built-ins.
    banner: {
      js: "import { createRequire as __apikitCreateRequire } from 'node:module'; const require = __apikitCreateRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
  });
  // Built beside the bundle in use, then moved in file by file, the entry last: a CLI started
  // meanwhile (a test, a bench) finds either the old entry or the new one with all its chunks.
  const built = await readdir(fresh);
  const isEntry = (name) => /^(cli|server|conform)\.js(\.map)?$/.test(name);
  await mkdir(target, { recursive: true });
  for (const name of [...built.filter((n) => !isEntry(n)), ...built.filter(isEntry)])
    await rename(join(fresh, name), join(target, name));
  await rm(fresh, { recursive: true, force: true });
  // A server still running an earlier build imports some chunks only when first needed (the
  // token library at the first login): its chunks (content-hashed names) stay for a day.
  const now = Date.now();
  for (const name of await readdir(target)) {
    if (built.includes(name)) continue;
    const file = join(target, name);
    if (now - (await stat(file)).mtimeMs > OLD_CHUNKS_KEPT_MS) await rm(file, { force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    await buildCli();
  } catch (error) {
    // esbuild has already printed its errors (with the importing file) to stderr.
    if (!error?.errors) console.error(error);
    process.exitCode = 1;
  }
}
