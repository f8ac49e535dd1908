import type { NegativeCase } from '../../generate/case-generator.js';
import type { KnownViolations } from './refusal-entries.js';

/** A case breaks nothing but its own place (or nothing else is known of it). */
const clean = (c: NegativeCase) =>
  c.places === undefined || (c.places.length === 1 && c.places[0] === c.pointer);

/**
 * What a request made of `cases` at once breaks (validation_errors): each case's own place,
 * which its 400 must name, and, for a case whose one change breaks a parent's rule too, the
 * other places the schema names, which it must name too (where the schema chooses among
 * branches, which an entry may name). A request of one case is
 * described by it; of several, as "a body breaking N constraints at once (...)".
 */
export function violationsAtOnce(cases: NegativeCase[]): KnownViolations {
  const what =
    cases.length === 1
      ? `${cases[0]!.pointer} (${cases[0]!.description})`
      : `a body breaking ${cases.length} constraints at once (${cases.map((c) => c.description).join('; ')})`;
  const own = cases.map((c) => c.pointer);
  if (cases.every(clean)) return { what, pointers: [...new Set(own)], only: true };
  // A parent's rule broken too is named as well; a branch's complaints may be named.
  const also = cases.filter((c) => !c.placesBranching).flatMap((c) => c.places ?? []);
  const others = cases.flatMap((c) => c.places ?? []);
  const pointers = [...new Set([...own, ...also])];
  return { what, pointers, someOf: [...new Set([...pointers, ...others])], only: true };
}
