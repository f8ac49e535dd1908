import type { InteractionFile, RecordedInteraction, RecordedTest } from './interaction-file.js';
import { compareTests, compareText, stableStringify } from './serialize-interactions.js';

/** The tests of both lists, each once, sorted. */
export function mergeTests(a: readonly RecordedTest[], b: readonly RecordedTest[]): RecordedTest[] {
  const byId = new Map<string, RecordedTest>();
  for (const test of [...a, ...b]) byId.set(JSON.stringify([test.file, test.name ?? null]), test);
  return [...byId.values()].sort(compareTests);
}

/**
 * Two recordings of the same shape as one: every test of both, and one example: the one whose
 * request and answer serialize first. A fixed rule rather than "whichever was written first",
 * so that the file does not depend on which test file or worker got there first.
 */
export function mergeInteraction(
  a: RecordedInteraction,
  b: RecordedInteraction,
): RecordedInteraction {
  const example = (i: RecordedInteraction) => stableStringify([i.request, i.response]);
  const kept = compareText(example(a), example(b)) <= 0 ? a : b;
  return { ...kept, tests: mergeTests(a.tests, b.tests) };
}

/** Interactions by key, one per shape, sorted by key. */
export function mergeInteractionLists(
  ...lists: readonly (readonly RecordedInteraction[])[]
): RecordedInteraction[] {
  const byKey = new Map<string, RecordedInteraction>();
  for (const interaction of lists.flat()) {
    const known = byKey.get(interaction.key);
    byKey.set(
      interaction.key,
      known
        ? mergeInteraction(known, interaction)
        : { ...interaction, tests: mergeTests([], interaction.tests) },
    );
  }
  return [...byKey.values()].sort((a, b) => compareText(a.key, b.key));
}

/**
 * Two recordings as one file: the union of their interactions by key (the tests of a shared
 * key together, one example kept), sorted. The consumer and the contract are the first's.
 * Commutative in its interactions and associative, so that recordings from many test files and
 * workers merge into the same file in any order.
 */
export function mergeInteractionFiles(
  first: InteractionFile,
  second: InteractionFile,
): InteractionFile {
  return {
    ...first,
    interactions: mergeInteractionLists(first.interactions, second.interactions),
  };
}
