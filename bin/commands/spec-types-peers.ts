import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { CliError } from '../cli-error.js';

/** The openapi-typescript apikit's peer range names, for the install line. */
const OPENAPI_TYPESCRIPT = 'openapi-typescript@^7.13.0';

/** What `apikit spec types` finds installed: the versions, undefined for a missing package. */
export interface SpecTypesPeers {
  openapiTypescript: string | undefined;
  /** The `typescript` openapi-typescript imports (else the one apikit would see). */
  typescript: string | undefined;
}

/**
 * Why `apikit spec types` cannot run with these packages, with the line that installs what it
 * needs; undefined when it can. openapi-typescript 7 builds on TypeScript's JavaScript API
 * (`ts.factory`, the printer), which the typescript package has in 5 and 6 and no longer in 7
 * (the native compiler: its main export is its version alone). Its peer range names
 * TypeScript 5 only, so npm installs it beside a TypeScript 6 only with --legacy-peer-deps; it
 * runs on 6 all the same (decision 0101).
 *
 * @example
 * specTypesProblem({ openapiTypescript: '7.13.0', typescript: '7.0.2' });
 * // 'apikit spec types needs TypeScript 5 or 6 ... npm i -D typescript@~6.0 --legacy-peer-deps'
 */
export function specTypesProblem({
  openapiTypescript,
  typescript,
}: SpecTypesPeers): string | undefined {
  const major = typescript === undefined ? undefined : Number(typescript.split('.')[0]);
  const withOpenapi = openapiTypescript === undefined ? ` ${OPENAPI_TYPESCRIPT}` : '';
  if (major !== undefined && major >= 7)
    return (
      `apikit spec types needs TypeScript 5 or 6: openapi-typescript builds on TypeScript's ` +
      `JavaScript API, which the typescript package no longer has from 7.0 on ` +
      `(${typescript} is installed). Install TypeScript 6 for it: ` +
      `npm i -D typescript@~6.0${withOpenapi} --legacy-peer-deps`
    );
  if (major === undefined)
    return (
      `apikit spec types needs ${openapiTypescript === undefined ? 'openapi-typescript and ' : ''}` +
      `TypeScript 5 or 6, which ${openapiTypescript === undefined ? 'are' : 'is'} not installed: ` +
      `npm i -D${withOpenapi} typescript@^5`
    );
  if (openapiTypescript === undefined)
    return (
      `apikit spec types needs openapi-typescript, which is not installed: ` +
      `npm i -D ${OPENAPI_TYPESCRIPT}` +
      (major === 6 ? ' --legacy-peer-deps (its peer range names TypeScript 5; it runs on 6)' : '')
    );
  return undefined;
}

/** Throws a CliError (exit 2) naming what to install when `apikit spec types` cannot run. */
export function requireSpecTypesPeers(): void {
  const problem = specTypesProblem(installedSpecTypesPeers());
  if (problem) throw new CliError(problem);
}

function installedSpecTypesPeers(): SpecTypesPeers {
  const fromApikit = createRequire(import.meta.url);
  const openapiTypescript = versionOf(fromApikit, 'openapi-typescript');
  // openapi-typescript imports the typescript that resolves from its own folder.
  const fromOpenapi =
    openapiTypescript === undefined
      ? fromApikit
      : createRequire(fromApikit.resolve('openapi-typescript/package.json'));
  return { openapiTypescript, typescript: versionOf(fromOpenapi, 'typescript') };
}

function versionOf(require: NodeJS.Require, name: string): string | undefined {
  try {
    const manifest = readFileSync(require.resolve(`${name}/package.json`), 'utf8');
    return (JSON.parse(manifest) as { version: string }).version;
  } catch {
    return undefined;
  }
}
