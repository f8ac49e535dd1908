import { createRequire } from 'node:module';
import { dirname } from 'node:path';

/**
 * The swagger-ui-dist files the /docs page loads, and nothing else of the package: its
 * stylesheet (whose images are data: URLs), its bundle and the icon the page links. The
 * source maps are left out: only developer tools ask for them, and they are megabytes.
 */
export const DOCS_ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png'] as const;

/** Where swagger-ui-dist is, and the versioned URL path its assets are served under. */
export interface SwaggerUi {
  /** The package's folder. */
  dir: string;
  /** `/docs/assets/5.35.0`: a version's files never change, so each URL is immutable. */
  assets: string;
}

/**
 * swagger-ui-dist's folder and version, read from its package.json; undefined when the
 * optional peer is not installed (decision 0048) or names no version. Resolved rather than taken from the
 * package's main module (`getAbsoluteFSPath`), which loads the whole Swagger UI bundle
 * (several MB of JavaScript, about half a second) just to name its folder.
 *
 * @example
 * swaggerUi()?.assets; // '/docs/assets/5.35.0'
 */
export function swaggerUi(): SwaggerUi | undefined {
  const require = createRequire(import.meta.url);
  let manifest: string;
  try {
    manifest = require.resolve('swagger-ui-dist/package.json');
  } catch {
    return undefined;
  }
  const { version } = require(manifest) as { version?: unknown };
  // A version names the URL path segment of its files; an install without a usable one is
  // taken as none, since its files could not be cached as immutable.
  if (typeof version !== 'string' || !/^[0-9A-Za-z.+-]+$/.test(version)) return undefined;
  return { dir: dirname(manifest), assets: `/docs/assets/${version}` };
}
