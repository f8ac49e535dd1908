import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's name on the registry (the command is `apikit`; decision 0095). */
export const PACKAGE_NAME = 'user-order-apikit';

/**
 * The folder that holds the package's own package.json. Found by walking up from this file so that
 * it works both from the TypeScript sources and from the compiled `dist/` tree.
 */
export const packageRoot: string = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** Absolute path of the bundled contract, `spec/openapi.yaml`. */
export const specPath: string = join(packageRoot, 'spec', 'openapi.yaml');

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (readPackageName(join(dir, 'package.json')) === PACKAGE_NAME) return dir;
    if (dirname(dir) === dir)
      throw new Error(`apikit: no ${PACKAGE_NAME} package.json above ${start}`);
  }
}

function readPackageName(file: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name;
  } catch {
    return undefined;
  }
}
