import * as esbuild from 'esbuild';
import { packageRoot } from '../spec/spec-path.js';

/** Options of {@link bundleProbe}: what differs from scripts/build-cli.mjs's own settings. */
export interface ProbeOptions {
  /** The probe's source, resolved from the package root. */
  source: string;
  plugins: esbuild.Plugin[];
  /** Packages left to Node's loader, as the CLI bundle leaves some. */
  external?: string[];
  /** Code put first, as the CLI bundle's `require` banner. */
  banner?: string;
}

/**
 * Bundles a small probe program the way scripts/build-cli.mjs bundles the CLI (one ES module
 * for Node 20.19), with the build plugins under test, and returns its text: the plugins' tests
 * run what the real build would make of the packages they change.
 *
 * @example
 * const text = await bundleProbe({ source: "import w from 'string-width'; console.log(w('a'));", plugins: [plugin] });
 */
export async function bundleProbe(options: ProbeOptions): Promise<string> {
  const result = await esbuild.build({
    stdin: { contents: options.source, resolveDir: packageRoot, loader: 'js' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: ['node20.19'],
    external: options.external ?? [],
    plugins: options.plugins,
    ...(options.banner === undefined ? {} : { banner: { js: options.banner } }),
    write: false,
    logLevel: 'silent',
  });
  return result.outputFiles[0]!.text;
}
