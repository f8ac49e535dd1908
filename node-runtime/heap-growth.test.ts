import { spawnSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../spec/spec-path.js';
import { boundHeapGrowth } from './heap-growth.js';

// Holds 100,000 small records (as a large store does) and then, round after round, makes
// garbage that lives through two scavenges (so it lands in the old generation, as the
// garbage of a flush does) before it is dropped; prints the largest heap V8 had.
const program = (bound: boolean) => `
${bound ? `(await import(${JSON.stringify(pathToFileURL(join(packageRoot, 'dist/node-runtime/heap-growth.js')).href)})).boundHeapGrowth(35, []);` : ''}
const live = [];
for (let i = 0; i < 100_000; i++) live.push({ id: i, name: 'user ' + i, email: 'u' + i + '@example.com', tags: [i, i + 1] });
let peak = 0;
let kept = [];
for (let round = 0; round < 40; round++) {
  for (let i = 0; i < 20_000; i++) kept.push({ round, i, s: 'x' + i });
  if (round % 3 === 2) kept = [];
  for (let j = 0; j < 5; j++) new Array(50_000).fill(0).map((_, k) => ({ k }));
  peak = Math.max(peak, process.memoryUsage().heapTotal);
}
console.log(JSON.stringify({ peak, live: live.length }));
`;

function peakHeap(bound: boolean): number {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', program(bound)], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(run.stderr).toBe('');
  return (JSON.parse(run.stdout) as { peak: number }).peak;
}

describe('boundHeapGrowth (apikit serve, decision 0039)', () => {
  it('keeps the heap near its live data while old garbage piles up', () => {
    const unbounded = peakHeap(false);
    const bounded = peakHeap(true);
    // Measured 97 MB against 159 MB on the machine it was written on.
    expect(bounded).toBeLessThan(unbounded * 0.75);
  });

  it('leaves a --heap-growing-percent given to node alone', () => {
    expect(boundHeapGrowth(35, ['--heap-growing-percent=80'])).toBe(false);
    expect(boundHeapGrowth(35, ['--inspect', '--heap-growing-percent', '80'])).toBe(false);
  });

  it('refuses a growth that is not a whole percentage of at least 1', () => {
    expect(() => boundHeapGrowth(0, ['--heap-growing-percent=80'])).toThrow(RangeError);
    expect(() => boundHeapGrowth(2.5, ['--heap-growing-percent=80'])).toThrow(RangeError);
  });
});
