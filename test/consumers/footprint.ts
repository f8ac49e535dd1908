import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What installing one package adds to a project, beyond what the project has anyway. */
export interface Footprint {
  /** Packages only `name` brings (itself included), none that another dependency or msw brings. */
  packages: string[];
  /** Their files' apparent size on disk, in bytes (nested node_modules not counted twice). */
  bytes: number;
}

interface LockEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
}

/**
 * The footprint of `name` in an installed project, read from its package-lock.json the way
 * Node resolves (a package's own node_modules first, then its parents'): the packages that
 * `name` pulls in and that neither the project's other dependencies nor `excluded` (msw: a peer
 * the app installs for itself) pull in.
 */
export function footprint(projectDir: string, name: string, excluded: string[] = []): Footprint {
  const lock = JSON.parse(readFileSync(join(projectDir, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const entries = lock.packages;
  const resolve = (from: string, dep: string): string | undefined => {
    let base = from;
    for (;;) {
      const key = `${base ? `${base}/` : ''}node_modules/${dep}`;
      if (entries[key]) return key;
      if (!base) return undefined;
      const cut = base.lastIndexOf('/node_modules/');
      base = cut < 0 ? '' : base.slice(0, cut);
    }
  };
  const closure = (starts: string[]): Set<string> => {
    const seen = new Set<string>();
    const queue = starts.filter((key) => entries[key]);
    while (queue.length > 0) {
      const key = queue.pop()!;
      if (seen.has(key)) continue;
      seen.add(key);
      const entry = entries[key]!;
      const optionalPeers = entry.peerDependenciesMeta ?? {};
      const deps = [
        ...Object.keys(entry.dependencies ?? {}),
        ...Object.keys(entry.optionalDependencies ?? {}),
        ...Object.keys(entry.peerDependencies ?? {}).filter((d) => !optionalPeers[d]?.optional),
      ];
      for (const dep of deps) {
        const found = resolve(key, dep);
        if (found) queue.push(found);
      }
    }
    return seen;
  };
  const root = entries[''] as LockEntry & { devDependencies?: Record<string, string> };
  const rootDeps = [
    ...Object.keys(root.dependencies ?? {}),
    ...Object.keys(root.devDependencies ?? {}),
    ...Object.keys(root.optionalDependencies ?? {}),
  ];
  const others = closure(rootDeps.filter((d) => d !== name).map((d) => `node_modules/${d}`));
  for (const key of closure(excluded.map((d) => `node_modules/${d}`))) others.add(key);
  const mine = [...closure([`node_modules/${name}`])].filter((key) => !others.has(key));
  return {
    packages: mine.map((key) =>
      key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length),
    ),
    bytes: mine.reduce((sum, key) => sum + folderBytes(join(projectDir, key)), 0),
  };
}

/** Apparent size of a folder's files, leaving out nested node_modules (counted as their own). */
function folderBytes(dir: string): number {
  let total = 0;
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0; // an optional dependency for another platform: in the lock, not on disk
  }
  for (const name of names) {
    if (name === 'node_modules') continue;
    const path = join(dir, name);
    const stat = lstatSync(path);
    total += stat.isDirectory() ? folderBytes(path) : stat.size;
  }
  return total;
}
