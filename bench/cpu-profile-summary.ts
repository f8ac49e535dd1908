/**
 * `node dist/bench/cpu-profile-summary.js FILE.cpuprofile [N]`: the N functions with the most
 * self time in a V8 CPU profile (as `node --cpu-prof` writes it, and `npm run bench --
 * --cpu-prof` for the apikit servers), with the file they live in, and the share by package.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Self time in ms per function, and per package (node_modules name, node:, or this repo). */
export function summarise(profile: Profile): {
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
    const where = shortUrl(frame.url);
    const name = frame.functionName || '(anonymous)';
    const key = `${name} ${where}:${frame.lineNumber + 1}`;
    const entry = functions.get(key) ?? { name, where: `${where}:${frame.lineNumber + 1}`, ms: 0 };
    entry.ms += ms;
    functions.set(key, entry);
    const pkg = packageOf(frame.url, name);
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
  return url.replace(/^file:\/\//, '') || '(native)';
}

function packageOf(url: string, name: string): string {
  const modules = url.lastIndexOf('node_modules/');
  if (modules >= 0) {
    const rest = url.slice(modules + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? '?');
  }
  if (url.startsWith('node:')) return 'node: (core)';
  if (url.includes('/dist/')) return 'apikit (dist/)';
  if (url === '') return name.startsWith('(') ? name : '(native / V8)';
  return 'other';
}

const file = process.argv[2];
if (file) {
  const top = Math.max(1, Number(process.argv[3] ?? 25) || 25);
  const { totalMs, functions, packages } = summarise(
    JSON.parse(readFileSync(file, 'utf8')) as Profile,
  );
  const pct = (ms: number) => `${((ms / totalMs) * 100).toFixed(1).padStart(5)}%`;
  process.stdout.write(`${file}: ${(totalMs / 1000).toFixed(2)} s of samples\n\nBy package:\n`);
  for (const p of packages.slice(0, 15)) process.stdout.write(`  ${pct(p.ms)}  ${p.name}\n`);
  process.stdout.write(`\nTop ${top} functions by self time:\n`);
  for (const f of functions.slice(0, top))
    process.stdout.write(`  ${pct(f.ms)}  ${f.name}  ${f.where}\n`);
}
