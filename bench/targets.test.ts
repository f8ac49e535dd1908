import { describe, expect, it } from 'vitest';
import { judge, TARGETS } from './targets.js';

const one = (median: number) => ({ min: median, median, max: median, n: 1 });

describe('judge', () => {
  it('meets a floor at the threshold and guards at half of it', () => {
    const t = TARGETS.getUserThroughput; // >= 0.70x
    expect(judge(t, one(0.7))).toMatchObject({ verdict: 'met', guard: 'ok' });
    expect(judge(t, one(0.5))).toMatchObject({ verdict: 'missed', guard: 'ok' });
    expect(judge(t, one(0.34))).toMatchObject({ verdict: 'missed', guard: 'failed' });
  });

  it('meets a ceiling strictly below it and guards at twice it', () => {
    const t = TARGETS.getUserP99; // < 3x
    expect(judge(t, one(2.9))).toMatchObject({ verdict: 'met', guard: 'ok' });
    expect(judge(t, one(3))).toMatchObject({ verdict: 'missed', guard: 'ok' });
    expect(judge(t, one(6.1))).toMatchObject({ verdict: 'missed', guard: 'failed' });
  });

  it('judges the median, not the best run', () => {
    expect(judge(TARGETS.listUsers, { min: 0.2, median: 0.45, max: 0.9, n: 3 }).verdict).toBe(
      'missed',
    );
  });

  it('reports an absolute time but never fails the quick run on it', () => {
    expect(judge(TARGETS.coldStart, one(5000))).toMatchObject({
      verdict: 'missed',
      guard: 'unguarded',
    });
  });

  it('fails the guard when a measurement broke, not when it was skipped on purpose', () => {
    expect(judge(TARGETS.coldStart, undefined, { kind: 'error', reason: 'crashed' })).toMatchObject(
      { verdict: 'not measured', guard: 'failed', note: 'crashed' },
    );
    expect(
      judge(TARGETS.fuzzThroughput, undefined, { kind: 'skipped', reason: 'no fuzz mode' }),
    ).toMatchObject({ verdict: 'not measured', guard: 'skipped' });
  });
});
