/**
 * `node dist/bench/cpu-profile-summary.js FILE.cpuprofile [N]`: the N functions with the most
 * self time in a V8 CPU profile (as `node --cpu-prof` writes it, and `npm run bench --
 * --cpu-prof` for the apikit servers), with the file they live in, and the share by package.
 */
import { existsSync, readFileSync } from 'node:fs';
import { SourceMap } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { REPO_ROOT } from './repo-root.js';

/** This checkout as a file URL ending in `/`: TypeScript sources a source map leads to. */
const REPO_URL = pathToFileURL(REPO_ROOT.endsWith('/') ? REPO_ROOT : `${REPO_ROOT}/`).href;

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber?: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Where a frame's code came from: its URL and 0-based line. */
export type FrameResolver = (frame: ProfileNode['callFrame']) => { url: string; line: number };

/**
 * Resolves frames of bundled files (the CLI runs from dist/cli/, decision 0032) through their
 * source maps to the package or TypeScript file the code came from; other frames as they are.
 */
export function sourceMapResolver(): FrameResolver {
  const maps = new Map<string, SourceMap | undefined>();
  const mapOf = (url: string) => {
    if (!maps.has(url)) {
      let map: SourceMap | undefined;
      try {
        const file = `${fileURLToPath(url)}.map`;
        if (existsSync(file)) map = new SourceMap(JSON.parse(readFileSync(file, 'utf8')));
      } catch {
        map = undefined;
      }
      maps.set(url, map);
    }
    return maps.get(url);
  };
  return (frame) => {
    const map = frame.url.startsWith('file:') ? mapOf(frame.url) : undefined;
    const entry = map?.findEntry(frame.lineNumber, frame.columnNumber ?? 0);
    if (!entry || !('originalSource' in entry) || !entry.originalSource) {
      return { url: frame.url, line: frame.lineNumber };
    }
    const source = entry.originalSource.startsWith('file:')
      ? entry.originalSource
      : pathToFileURL(fileURLToPath(new URL(entry.originalSource, frame.url))).href;
    return { url: source, line: entry.originalLine };
  };
}

/** Self time in ms per function, and per package (node_modules name, node:, or this repo). */
export function summarise(
  profile: Profile,
  resolve: FrameResolver = (frame) => ({ url: frame.url, line: frame.lineNumber }),
): {
  totalMs: number;
  functions: { name: string; where: string; ms: number }[];
  packages: { name: string; ms: number }[];
} {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  profile.samples.forEach((id, i) => {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
  });
  const functions = new Map<string, { name: string; where: string; ms: number }>();
  const packages = new Map<string, number>();
  let totalMs = 0;
  for (const [id, ms] of self) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    totalMs += ms;
    const { url, line } = resolve(frame);
    const where = shortUrl(url);
    const name = frame.functionName || '(anonymous)';
    const key = `${name} ${where}:${line + 1}`;
    const entry = functions.get(key) ?? { name, where: `${where}:${line + 1}`, ms: 0 };
    entry.ms += ms;
    functions.set(key, entry);
    const pkg = packageOf(url, name);
    packages.set(pkg, (packages.get(pkg) ?? 0) + ms);
  }
  return {
    totalMs,
    functions: [...functions.values()].sort((a, b) => b.ms - a.ms),
    packages: [...packages.entries()]
      .map(([name, ms]) => ({ name, ms }))
      .sort((a, b) => b.ms - a.ms),
  };
}

function shortUrl(url: string): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) return url.slice(modules + 'node_modules/'.length);
  const dist = url.indexOf('/dist/');
  if (dist >= 0) return url.slice(dist + 1);
  if (url.startsWith(REPO_URL)) return url.slice(REPO_URL.length);
  return url.replace(/^file:\/\//, '') || '(native)';
}

function packageOf(url: string, name: string): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? '?');
  }
  if (url.startsWith('node:')) return 'node: (core)';
  if (url.includes('/dist/') || url.startsWith(REPO_URL)) return 'apikit';
  if (url === '') return name.startsWith('(') ? name : '(native / V8)';
  return 'other';
}

const file = process.argv[2];
if (file) {
  const top = Math.max(1, Number(process.argv[3] ?? 25) || 25);
  const { totalMs, functions, packages } = summarise(
    JSON.parse(readFileSync(file, 'utf8')) as Profile,
    sourceMapResolver(),
  );
  const pct = (ms: number) => `${((ms / totalMs) * 100).toFixed(1).padStart(5)}%`;
  process.stdout.write(`${file}: ${(totalMs / 1000).toFixed(2)} s of samples\n\nBy package:\n`);
  for (const p of packages.slice(0, 15)) process.stdout.write(`  ${pct(p.ms)}  ${p.name}\n`);
  process.stdout.write(`\nTop ${top} functions by self time:\n`);
  for (const f of functions.slice(0, top))
    process.stdout.write(`  ${pct(f.ms)}  ${f.name}  ${f.where}\n`);
}
