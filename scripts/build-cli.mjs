#!/usr/bin/env node
// Bundles the compiled CLI (dist/bin/cli.js, written by tsc just before) with esbuild into
// dist/cli/: one ES module per lazily loaded command, the npm packages they import inlined.
// Why: `apikit serve`'s cold start is budgeted at 300 ms (issue 6), and a third of it went on
// Node resolving, stat-ing and reading some 400 module files one by one (decision 0032). The
// bundle runs the very code tsc emitted; dist/bin/cli.js stays for anyone importing it.
//
//   node scripts/build-cli.mjs            (part of npm run build)
import { readFile, rename, rm } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

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

/**
 * yargs' help (which it renders for every command it runs, decision 0032) measures text with
 * string-width. cliui and wrap-ansi pin string-width 7, which sends every string through an
 * Intl.Segmenter; yargs' own string-width 8 answers printable ASCII without one. So the bundle
 * holds one string-width, 8, whose segmenter is made on first use: making it loads ICU's
 * segmentation data (20-30 ms), which apikit's ASCII help never needs.
 */
const oneLazyStringWidth = {
  name: 'one-lazy-string-width',
  setup(build) {
    const latest = join(root, 'node_modules', 'string-width', 'index.js');
    build.onResolve({ filter: /^string-width$/ }, (args) =>
      /[\\/]node_modules[\\/](yargs|cliui|wrap-ansi)[\\/]/.test(args.importer)
        ? { path: latest }
        : undefined,
    );
    build.onLoad({ filter: /[\\/]string-width[\\/]index\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const eager = 'const segmenter = new Intl.Segmenter();';
      const lazy =
        'let madeSegmenter; const segmenter = { segment: (text) => (madeSegmenter ??= new Intl.Segmenter()).segment(text) };';
      // Another version may not have this line: then it is bundled as it is.
      return { contents: source.replace(eager, lazy), loader: 'js' };
    });
  },
};

export async function buildCli() {
  // Built beside the old bundle and swapped in by two renames: a CLI started meanwhile (a test,
  // a bench) never finds dist/cli half written, and old chunks do not pile up beside new ones.
  const target = join(root, outdir);
  const fresh = `${target}.new-${process.pid}`;
  const stale = `${target}.old-${process.pid}`;
  await rm(fresh, { recursive: true, force: true });
  await esbuild.build({
    absWorkingDir: root,
    entryPoints: { cli: 'dist/bin/cli.js' },
    outdir: fresh,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: ['node20.19'],
    external: EXTERNAL,
    plugins: [yargsShimLocation, oneLazyStringWidth],
    // CommonJS packages inside an ES module bundle still call require() for Node built-ins.
    banner: {
      js: "import { createRequire as __apikitCreateRequire } from 'node:module'; const require = __apikitCreateRequire(import.meta.url);",
    },
    sourcemap: 'linked',
    legalComments: 'none',
    logLevel: 'warning',
  });
  await rename(target, stale).catch((error) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await rename(fresh, target);
  await rm(stale, { recursive: true, force: true });
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
