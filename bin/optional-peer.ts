import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { packageRoot } from '../spec/spec-path.js';
import { CliError } from './cli-error.js';

/**
 * Throws a {@link CliError} with a one-line install hint when an optional peer dependency of
 * apikit is not installed. Only some commands need these packages (Prism: about 270 packages;
 * openapi-typescript with TypeScript: 25 MB), so a project that installs apikit for its mocks
 * does not get them (decision 0048). The hint names the range apikit's own package.json gives
 * the peer (Prism is pinned to 5.14, whose path handling apikit was measured with, 0073).
 *
 * @example
 * requirePeer('@stoplight/prism-cli', 'apikit mock --engine prism');
 * // apikit mock --engine prism needs @stoplight/prism-cli, which is not installed:
 * //   npm i -D @stoplight/prism-cli@^5.14.0
 */
export function requirePeer(packageName: string, command: string): void {
  if (!isInstalled(packageName))
    throw new CliError(
      `${command} needs ${packageName}, which is not installed: ${installLine(packageName)}`,
    );
}

/** Whether `packageName` resolves from apikit's own location (as its import would). */
export function isInstalled(packageName: string): boolean {
  try {
    createRequire(import.meta.url).resolve(`${packageName}/package.json`);
    return true;
  } catch (error) {
    // A package whose `exports` hide its package.json is installed all the same.
    return (error as { code?: string }).code === 'ERR_PACKAGE_PATH_NOT_EXPORTED';
  }
}

/** `npm i -D NAME@RANGE`, the range from apikit's `peerDependencies`; the bare name for others. */
export function installLine(packageName: string): string {
  const manifest = JSON.parse(readFileSync(join(packageRoot, 'package.json'), 'utf8')) as {
    peerDependencies?: Record<string, string>;
  };
  const range = manifest.peerDependencies?.[packageName];
  return `npm i -D ${range ? `${packageName}@${range}` : packageName}`;
}
