import { describe, expect, it } from 'vitest';
import { batchedLines } from './batched-lines.js';

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('batchedLines', () => {
  it('writes the lines of one turn together, in order, at the end of the turn', async () => {
    const written: string[] = [];
    const lines = batchedLines((text) => written.push(text));
    lines.write('a\n');
    lines.write('b\n');
    expect(written).toEqual([]);
    await turn();
    expect(written).toEqual(['a\nb\n']);
    lines.write('c\n');
    await turn();
    expect(written).toEqual(['a\nb\n', 'c\n']);
  });

  it('flushes what is pending at once, and nothing twice', async () => {
    const written: string[] = [];
    const lines = batchedLines((text) => written.push(text));
    lines.write('x\n');
    lines.flush();
    expect(written).toEqual(['x\n']);
    await turn();
    lines.flush();
    expect(written).toEqual(['x\n']);
  });
});
