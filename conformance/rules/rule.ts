/** The two documents the rules come from. */
export type RuleDocument = 'interface' | 'contract';

/**
 * One rule of the contract, as the inventory keeps it: what it says, where it is written, the
 * registered checks that judge it and the faults of the fault-injection table that prove those
 * checks catch a break of it. A rule without a check or without a fault says why in `gap`; a
 * rule that cannot be judged from outside says why in `notCheckable`.
 *
 * @example
 * const rule: Rule = {
 *   id: 'users.delete.twice-404',
 *   says: 'DELETE /users/{id}: 204; again: 404',
 *   source: ['contract', 'Users'],
 *   checks: ['delete_twice'],
 *   faults: ['second-delete-204'],
 * };
 */
export interface Rule {
  /** Stable, dotted, lower-case kebab segments: `area.subject.rule`. */
  id: string;
  /** The rule, short, in the document's words. */
  says: string;
  /** The document and its section (heading) that state the rule. */
  source: [RuleDocument, string];
  /** Check names as registered (the default registry and the fuzz checks). */
  checks: string[];
  /** Fault names of the fault-injection table whose expected check is one of `checks`. */
  faults: string[];
  /** Why the rule lacks a check or a fault (required when either list is empty). */
  gap?: string;
  /** Why the rule cannot be judged from outside (then `checks` and `faults` are empty). */
  notCheckable?: string;
}

/** A group of rules as rendered under one heading. */
export interface RuleArea {
  /** The area's id prefix, e.g. `auth`. */
  id: string;
  title: string;
  rules: Rule[];
}

/** Where a rule stands: judged and proven, judged without proof, not judged, or unjudgeable. */
export type RuleStatus = 'proven' | 'no-fault' | 'no-check' | 'not-checkable';

/** The status of a rule, from its lists and reasons. */
export function ruleStatus(rule: Rule): RuleStatus {
  if (rule.notCheckable !== undefined) return 'not-checkable';
  if (rule.checks.length === 0) return 'no-check';
  if (rule.faults.length === 0) return 'no-fault';
  return 'proven';
}

/** Shorthands for table rows: `C` = contract page, `I` = interface document. */
export const C = (section: string): [RuleDocument, string] => ['contract', section];
export const I = (section: string): [RuleDocument, string] => ['interface', section];

/** A rule no check judges yet. */
export function noCheck(id: string, says: string, source: Rule['source'], gap: string): Rule {
  return { id, says, source, checks: [], faults: [], gap: `no check yet: ${gap}` };
}

/** A rule that cannot be judged from outside, and why. */
export function outside(id: string, says: string, source: Rule['source'], why: string): Rule {
  return { id, says, source, checks: [], faults: [], notCheckable: why };
}

/** A rule judged by `checks`, proven by `faults` (or, when none, with the gap said). */
export function judged(
  id: string,
  says: string,
  source: Rule['source'],
  checks: string[],
  faults: string[],
  gap?: string,
): Rule {
  return faults.length === 0
    ? { id, says, source, checks, faults, gap: `no fault yet${gap ? `: ${gap}` : ''}` }
    : { id, says, source, checks, faults, ...(gap ? { gap } : {}) };
}
