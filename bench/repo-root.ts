import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The repository root (where package.json names apikit), found from this file whether it runs
 * from bench/ or from dist/bench/.
 */
export const REPO_ROOT: string = findRoot(dirname(fileURLToPath(import.meta.url)));

function findRoot(start: string): string {
  let dir = start;
  for (let depth = 0; depth < 6; depth++) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const { name } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string };
      if (name === 'apikit') return dir;
    }
    dir = dirname(dir);
  }
  throw new Error(`no apikit package.json above ${start}`);
}
