// An esbuild plugin for scripts/build-cli.mjs: one string-width in the bundle, whose costly
// parts are made on first use (decisions 0032 and 0043).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Lines of string-width 8 made lazy: each the eager line as the package writes it, and its
 * stand-in, made on first use. Both run only for text other than printable ASCII, which
 * apikit's help never has, yet every start paid for them at load: making the Intl.Segmenter
 * loads ICU's segmentation data (20-30 ms), and the `^\p{RGI_Emoji}$` pattern (a property of
 * strings: thousands of sequences) takes V8 16 ms to build. A version without one of these
 * lines is bundled as it is for that line.
 */
export const LAZY_LINES = [
  [
    'const segmenter = new Intl.Segmenter();',
    'let madeSegmenter; const segmenter = { segment: (text) => (madeSegmenter ??= new Intl.Segmenter()).segment(text) };',
  ],
  [
    'const rgiEmojiRegex = /^\\p{RGI_Emoji}$/v;',
    'let madeRgiEmojiRegex; const rgiEmojiRegex = { test: (text) => (madeRgiEmojiRegex ??= /^\\p{RGI_Emoji}$/v).test(text) };',
  ],
];

/**
 * The esbuild plugin; `root` is the package root. yargs' help (which it renders for every
 * command it runs, decision 0032) measures text with string-width. cliui and wrap-ansi pin
 * string-width 7, which sends every string through an Intl.Segmenter; yargs' own string-width
 * 8 answers printable ASCII without one. So the bundle holds one string-width, 8 (the one at
 * the root of node_modules), with the {@link LAZY_LINES} in place.
 */
export function oneLazyStringWidth(root) {
  return {
    name: 'one-lazy-string-width',
    setup(build) {
      const latest = join(root, 'node_modules', 'string-width', 'index.js');
      build.onResolve({ filter: /^string-width$/ }, (args) =>
        /[\\/]node_modules[\\/](yargs|cliui|wrap-ansi)[\\/]/.test(args.importer)
          ? { path: latest }
          : undefined,
      );
      build.onLoad({ filter: /[\\/]string-width[\\/]index\.js$/ }, async (args) => {
        let source = await readFile(args.path, 'utf8');
        for (const [eager, lazy] of LAZY_LINES) source = source.replace(eager, lazy);
        return { contents: source, loader: 'js' };
      });
    },
  };
}
