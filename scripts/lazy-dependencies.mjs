// An esbuild plugin for scripts/build-cli.mjs: Express's load-time dependencies that apikit
// seldom or never calls are loaded on first use instead (decision 0037).
import { createRequire } from 'node:module';
import { dirname, relative, sep } from 'node:path';

/**
 * Packages that Express and its helpers require at load time for features `apikit serve` never
 * or seldom calls, each replaced (for the importers named) by a stand-in that requires the real
 * package on first use, so that every feature still works for whoever asks: `express.json()`,
 * the 'extended' query parser, `res.type('json')`. The reference server reads bodies itself
 * (core/pipeline/body-parser.ts), keeps Express's 'simple' query parser and sets its
 * own Content-Type, but body-parser (raw-body, iconv-lite, node:zlib, qs), qs (side-channel,
 * get-intrinsic and their helpers: some 40 modules) and mime-types (mime-db's 200 KB JSON read
 * and a map of 2,000 types built) cost every start (decision 0037). A stand-in forwards the
 * `functions` named and reads the `objects` named through getters; the build fails when the
 * real package no longer has one of them.
 */
export const LAZY = {
  'body-parser': {
    importers: /[\\/]express[\\/]lib[\\/]express\.js$/,
    functions: ['json', 'raw', 'text', 'urlencoded'],
    objects: [],
  },
  qs: {
    importers: /[\\/]express[\\/]lib[\\/]utils\.js$/,
    functions: ['parse'],
    objects: [],
  },
  'mime-types': {
    importers: /[\\/]node_modules[\\/](express|send|type-is|accepts)[\\/]/,
    functions: ['charset', 'contentType', 'extension', 'lookup'],
    objects: ['charsets', 'extensions', 'types'],
  },
};

/**
 * The esbuild plugin that puts the stand-ins of {@link LAZY} in place; `root` is the package
 * root, against which the stand-ins are named (the bundle carries no path of the build machine).
 */
export function lazyExpressDependencies(root) {
  return {
    name: 'lazy-express-dependencies',
    setup(build) {
      const filter = new RegExp(`^(${Object.keys(LAZY).join('|')})$`);
      build.onResolve({ filter }, async (args) => {
        if (args.pluginData?.real || !LAZY[args.path].importers.test(args.importer))
          return undefined;
        // Keyed by the real file, so that importers of different versions get their own.
        const real = await build.resolve(args.path, {
          kind: 'require-call',
          resolveDir: args.resolveDir,
          pluginData: { real: true },
        });
        if (real.errors.length > 0) return { errors: real.errors };
        // Named relative to the package root: the bundle carries no path of the build machine.
        return {
          path: relative(root, real.path).split(sep).join('/'),
          namespace: 'lazy',
          pluginData: { name: args.path, real: real.path },
        };
      });
      build.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => {
        const { functions, objects } = LAZY[args.pluginData.name];
        const { real } = args.pluginData;
        const exported = createRequire(real)(real);
        const missing = [
          ...functions.filter((name) => typeof exported[name] !== 'function'),
          ...objects.filter((name) => typeof exported[name] !== 'object'),
        ];
        if (missing.length > 0)
          return {
            errors: [{ text: `${args.pluginData.name} no longer exports ${missing.join(', ')}` }],
          };
        const lines = [
          `let real; const load = () => (real ??= require(${JSON.stringify(real)}));`,
          ...functions.map(
            (name) =>
              `exports.${name} = function () { return load().${name}.apply(this, arguments); };`,
          ),
          ...objects.map(
            (name) =>
              `Object.defineProperty(exports, ${JSON.stringify(name)}, { enumerable: true, get: () => load().${name} });`,
          ),
        ];
        return { contents: lines.join('\n'), resolveDir: dirname(real), loader: 'js' };
      });
    },
  };
}
