import { createRequire } from 'node:module';
import { CliError } from './cli-error.js';

/**
 * Throws a {@link CliError} with a one-line install hint when an optional peer dependency of
 * apikit is not installed. Only some commands need these packages (Prism: about 270 packages;
 * openapi-typescript with TypeScript: 25 MB), so a project that installs apikit for its mocks
 * does not get them (decision 0048).
 *
 * @example
 * requirePeer('@stoplight/prism-cli', 'apikit mock --engine prism');
 * // apikit mock --engine prism needs @stoplight/prism-cli: npm i -D @stoplight/prism-cli
 */
export function requirePeer(packageName: string, command: string): void {
  if (!isInstalled(packageName))
    throw new CliError(`${command} needs ${packageName}: npm i -D ${packageName}`);
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
