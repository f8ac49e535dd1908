/** The numbers of a sample of outcomes: score, counts per operator, survivors by class. */
import { classify } from './classify.js';
import type { MutationOutcome } from './mutation-harness.js';

export interface OperatorCounts {
  applied: number;
  killed: number;
  survived: number;
  notApplied: number;
}

export interface MutationSummary {
  applied: number;
  killed: number;
  survived: number;
  notApplied: number;
  timeouts: number;
  /** killed / applied, as a percentage with one decimal. */
  score: string;
  allowed: number;
  blindSpots: number;
  /** `operator operation label` of each blind spot hit, once each. */
  blindSpotList: string[];
  unclassified: MutationOutcome[];
  byOperator: Record<string, OperatorCounts>;
}

export function summarize(outcomes: readonly MutationOutcome[]): MutationSummary {
  const byOperator: Record<string, OperatorCounts> = {};
  const blind = new Set<string>();
  let allowed = 0;
  let blindSpots = 0;
  const unclassified: MutationOutcome[] = [];
  for (const o of outcomes) {
    const c = (byOperator[o.mutation.operator] ??= {
      applied: 0,
      killed: 0,
      survived: 0,
      notApplied: 0,
    });
    if (o.verdict === 'not-applied') c.notApplied++;
    else c.applied++;
    if (o.verdict === 'killed') c.killed++;
    if (o.verdict !== 'survived' && o.verdict !== 'timeout') continue;
    c.survived++;
    const cls = classify(o.mutation);
    if (!cls) unclassified.push(o);
    else if (cls.verdict === 'allowed') allowed++;
    else {
      blindSpots++;
      blind.add(`${o.mutation.operator} ${o.mutation.operationId} ${o.mutation.label}`);
    }
  }
  const applied = outcomes.filter((o) => o.verdict !== 'not-applied').length;
  const killed = outcomes.filter((o) => o.verdict === 'killed').length;
  return {
    applied,
    killed,
    survived: outcomes.filter((o) => o.verdict === 'survived').length,
    notApplied: outcomes.length - applied,
    timeouts: outcomes.filter((o) => o.verdict === 'timeout').length,
    score: applied ? `${((100 * killed) / applied).toFixed(1)}%` : 'n/a',
    allowed,
    blindSpots,
    blindSpotList: [...blind].sort(),
    unclassified,
    byOperator,
  };
}
