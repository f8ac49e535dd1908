import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The folder that holds apikit's own package.json. Found by walking up from this file so that
 * it works both from the TypeScript sources and from the compiled `dist/` tree.
 */
export const packageRoot: string = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

/** Absolute path of the bundled contract, `spec/openapi.yaml`. */
export const specPath: string = join(packageRoot, 'spec', 'openapi.yaml');

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (readPackageName(join(dir, 'package.json')) === 'apikit') return dir;
    if (dirname(dir) === dir) throw new Error(`apikit: no apikit package.json above ${start}`);
  }
}

function readPackageName(file: string): string | undefined {
  try {
    return (JSON.parse(readFileSync(file, 'utf8')) as { name?: string }).name;
  } catch {
    return undefined;
  }
}
