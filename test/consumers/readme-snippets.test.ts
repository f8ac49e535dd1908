// The README's frontend snippets are the consumer apps' code (issue 19): every ts/tsx block of
// "Mocking the API in frontend tests and the browser" starts with the path of the file it comes
// from in test/consumers/vite-react/, every js block (the Jest recipe, decision 0105) with one in
// test/consumers/jest-jsdom/ (node-test/ for an .mjs file), and its lines (indentation aside) appear there in that order;
// `// ...` marks a gap. consumers.test.ts and jest-consumer.test.ts run those files from the
// packed tarball.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));
const readme = readFileSync(join(here, '../../README.md'), 'utf8');
const SECTION = '## Mocking the API in frontend tests and the browser';
/** The fixture each language's blocks come from: the Vite app's TypeScript, Jest's JavaScript. */
const FIXTURE_OF: Record<string, string> = {
  ts: 'vite-react',
  tsx: 'vite-react',
  js: 'jest-jsdom',
};

interface Block {
  line: number;
  fixture: string;
  lines: string[];
}

/** The ts/tsx/js blocks of the README's frontend section, with their line numbers. */
export function frontendBlocks(text: string): Block[] {
  const start = text.indexOf(SECTION);
  if (start < 0) throw new Error(`README.md has no "${SECTION}"`);
  const end = text.indexOf('\n## ', start + SECTION.length);
  const section = text.slice(start, end < 0 ? undefined : end);
  const offset = text.slice(0, start).split('\n').length;
  const blocks: Block[] = [];
  for (const match of section.matchAll(/^```(ts|tsx|js)\n([\s\S]*?)^```$/gm)) {
    const line = offset + section.slice(0, match.index).split('\n').length - 1;
    // Node's own runner's files are .mjs, in their fixture of their own.
    const fixture = /^\/\/ \S+\.mjs$/.test(match[2]!.split('\n')[0]!)
      ? 'node-test'
      : FIXTURE_OF[match[1]!]!;
    blocks.push({ line, fixture, lines: match[2]!.replace(/\n$/, '').split('\n') });
  }
  return blocks;
}

/** Whether the runs of `snippet` (split at `// ...`) occur in `file` in order, each contiguous. */
export function occursIn(snippet: string[], file: string): string | undefined {
  const norm = (lines: string[]) => lines.map((l) => l.trim());
  const fileLines = norm(file.split('\n'));
  const runs: string[][] = [[]];
  for (const line of norm(snippet)) {
    if (line === '// ...') runs.push([]);
    else runs.at(-1)!.push(line);
  }
  let from = 0;
  for (const run of runs.filter((r) => r.length > 0)) {
    let found = -1;
    for (let i = from; i + run.length <= fileLines.length && found < 0; i++)
      if (run.every((line, k) => fileLines[i + k] === line)) found = i;
    if (found < 0) return run.join('\n');
    from = found + run.length;
  }
  return undefined;
}

describe('the README frontend snippets', () => {
  const blocks = frontendBlocks(readme);

  it('exist, and each names the consumer file it comes from', () => {
    expect(blocks.filter((b) => b.fixture === 'vite-react').length).toBeGreaterThanOrEqual(4);
    expect(blocks.filter((b) => b.fixture === 'jest-jsdom').length).toBeGreaterThanOrEqual(4);
    for (const block of blocks)
      expect(block.lines[0], `README.md:${block.line}`).toMatch(
        block.fixture === 'vite-react' ? /^\/\/ src\/[\w/.-]+\.tsx?$/ : /^\/\/ [\w/.-]+\.m?js$/,
      );
  });

  it.each(blocks.map((b) => [b.line, b] as const))(
    'README.md:%i is the consumer app’s code',
    (_line, block) => {
      const path = block.lines[0]!.slice(3);
      const file = readFileSync(join(here, block.fixture, path), 'utf8');
      const missing = occursIn(block.lines.slice(1), file);
      expect(
        missing,
        `not in test/consumers/${block.fixture}/${path}:\n${missing}`,
      ).toBeUndefined();
    },
  );

  it('finds a changed line, and the order of the runs', () => {
    const file = 'a\n  b\nc\nd\n';
    expect(occursIn(['b', 'c'], file)).toBeUndefined();
    expect(occursIn(['a', '// ...', 'd'], file)).toBeUndefined();
    expect(occursIn(['d', '// ...', 'a'], file)).toBe('a');
    expect(occursIn(['b', 'x'], file)).toBe('b\nx');
  });
});
