import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { classify } from './classify.js';
import {
  startMutationHarness,
  type MutationHarness,
  type MutationOutcome,
} from './mutation-harness.js';
import { OPERATORS } from './operators.js';
import { SURVIVOR_CLASSES } from './survivor-classes.js';

/**
 * A small fixed-seed sample of the mutation harness (docs/mutation-testing.md): every mutation
 * that survives must be classified in survivor-classes.ts. `npm run mutation` runs larger ones.
 */
const SEED = 20261129;
const COUNT = 12;

describe('the mutation harness, a fixed-seed sample', () => {
  let harness: MutationHarness;
  const outcomes: MutationOutcome[] = [];

  beforeAll(async () => {
    harness = await startMutationHarness();
  });
  afterAll(async () => {
    await harness?.close();
  });

  it('every entry of the survivor table is reasoned', () => {
    for (const c of SURVIVOR_CLASSES) {
      const reason = c.verdict === 'allowed' ? c.clause : c.note;
      expect(reason?.length ?? 0, JSON.stringify(c)).toBeGreaterThan(40);
      if (typeof c.operator === 'string' && c.operator !== '*')
        expect(OPERATORS.map((o) => o.name)).toContain(c.operator);
    }
  });

  it(`leaves no unclassified survivor (seed ${SEED}, ${COUNT} mutations)`, async () => {
    for await (const mutation of harness.mutations(SEED, COUNT))
      outcomes.push(await harness.run(mutation));
    expect(outcomes).toHaveLength(COUNT);
    expect(outcomes.filter((o) => o.verdict === 'killed').length).toBeGreaterThan(0);
    const unclassified = outcomes.filter(
      (o) => (o.verdict === 'survived' || o.verdict === 'timeout') && !classify(o.mutation),
    );
    expect(unclassified.map((o) => o.mutation)).toEqual([]);
    // About 30 s on an idle 2-core machine (controls included); generous for shared ones.
  }, 240_000);
});
