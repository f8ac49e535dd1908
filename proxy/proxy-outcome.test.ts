import { describe, expect, it } from 'vitest';
import { judgeSession } from './proxy-outcome.js';
import type { ProxySummary } from './proxy-tally.js';

function summary(statuses: Record<string, number>): ProxySummary {
  const entries = Object.entries(statuses).map(([s, n]) => [Number(s), n] as const);
  const count = (keep: (s: number) => boolean) =>
    entries.filter(([s]) => keep(s)).reduce((sum, [, n]) => sum + n, 0);
  return {
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    requests: count(() => true),
    validated: count(() => true),
    violations: 0,
    warnings: 0,
    rejected: 0,
    succeeded: count((s) => s >= 200 && s < 400),
    serverErrors: count((s) => s >= 500),
    statuses,
    byOperation: {},
  };
}

describe('judgeSession', () => {
  it('says nothing about traffic with a success and no 5xx', () => {
    expect(judgeSession(summary({ '200': 3, '401': 9 }), { failOnNoSuccess: true })).toEqual({
      notes: [],
      failedBy: [],
    });
  });

  it('warns when every answer was refused, and fails on it only when asked', () => {
    const refused = summary({ '401': 9 });
    const note = 'nothing was validated: all 9 answers were 401 (no 2xx or 3xx: did a login fail?)';
    expect(judgeSession(refused, {})).toEqual({ notes: [note], failedBy: [] });
    expect(judgeSession(refused, { failOnNoSuccess: true })).toEqual({
      notes: [note],
      failedBy: ['--fail-on-no-success'],
    });
    expect(judgeSession(summary({ '401': 7, '404': 2 }), {}).notes).toEqual([
      'nothing was validated: all 9 answers were 401 x7, 404 x2 (no 2xx or 3xx)',
    ]);
    expect(judgeSession(summary({}), {}).notes).toEqual([
      'nothing was validated: no API request came through the proxy',
    ]);
  });

  it('warns about every 5xx, documented or not, and fails on them only when asked', () => {
    const failing = summary({ '200': 4, '500': 2, '503': 1 });
    const note = '3 answers were server errors (500 x2, 503 x1), documented or not';
    expect(judgeSession(failing, {})).toEqual({ notes: [note], failedBy: [] });
    expect(judgeSession(failing, { failOn5xx: true }).failedBy).toEqual(['--fail-on-5xx']);
    expect(judgeSession(summary({ '200': 1, '500': 1 }), {}).notes).toEqual([
      '1 answer was a server error (500), documented or not',
    ]);
  });
});
