/** Matching survivors against the reviewed table (survivor-classes.ts). */
import type { Mutation } from './mutation-harness.js';
import { SURVIVOR_CLASSES, type SurvivorClass } from './survivor-classes.js';

const matches = (pattern: string | RegExp, value: string) =>
  typeof pattern === 'string' ? pattern === '*' || pattern === value : pattern.test(value);

/** The first entry of the table that matches the survivor, or undefined: unclassified. */
export function classify(
  mutation: Mutation,
  table: readonly SurvivorClass[] = SURVIVOR_CLASSES,
): SurvivorClass | undefined {
  return table.find(
    (c) =>
      matches(c.operator, mutation.operator) &&
      matches(c.operation, mutation.operationId) &&
      matches(c.target, mutation.label) &&
      (c.status === undefined || c.status(mutation.status)) &&
      (c.method === undefined || matches(c.method, mutation.method)) &&
      (c.check === undefined || matches(c.check, mutation.check)),
  );
}
