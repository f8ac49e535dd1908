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
  /**
   * The rule's clauses, one observable statement each, when it says more than one (a rule on
   * sorting: the default order, each direction, the tie-break, where absent values go, how
   * strings compare). Each clause names the check that judges it and a fault that breaks only
   * it; the rule's `checks` and `faults` are then the union of its clauses' (decision 0114).
   * Absent: the rule is a single clause.
   */
  clauses?: Clause[];
}

/**
 * One observable statement of a rule: what a client can see break on its own. Judged by
 * `checks`, proven by `faults` (each expected of one of `checks`), or outside with a reason.
 */
export interface Clause {
  /** Lower-case kebab suffix, unique within its rule: `rule.id#clause.id` names it. */
  id: string;
  says: string;
  checks: string[];
  faults: string[];
  gap?: string;
  notCheckable?: string;
}

/** A clause with its full id (`rule#clause`, or the rule's id for a single-clause rule). */
export interface NamedClause extends Clause {
  rule: Rule;
}

/**
 * The clauses of a rule, each with its full id: the rule itself when it is a single clause.
 *
 * @example
 * clausesOf(rule).map((c) => c.id); // ['lists.sort.honoured#default-order', ...]
 */
export function clausesOf(rule: Rule): NamedClause[] {
  if (!rule.clauses) return [{ ...rule, rule }];
  return rule.clauses.map((c) => ({ ...c, id: `${rule.id}#${c.id}`, rule }));
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

/** The status of a rule or clause, from its lists and reasons. */
export function ruleStatus(rule: Pick<Rule, 'checks' | 'faults' | 'notCheckable'>): RuleStatus {
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

/** A clause judged by `checks`, proven by `faults` (or, when none, with the gap said). */
export function clause(id: string, says: string, checks: string[], faults: string[]): Clause {
  return faults.length === 0 || checks.length === 0
    ? { id, says, checks, faults, gap: `no ${checks.length === 0 ? 'check' : 'fault'} yet` }
    : { id, says, checks, faults };
}

/** A clause no client can observe, and why. */
export function outsideClause(id: string, says: string, why: string): Clause {
  return { id, says, checks: [], faults: [], notCheckable: why };
}

/**
 * A rule of several clauses: its checks and faults are the union of theirs.
 *
 * @example
 * split('lists.sort.honoured', 'sort orders the list', USERS, [
 *   clause('default-order', 'without sort: id ascending', ['sort_honoured'], ['sort-default-desc']),
 * ]);
 */
export function split(id: string, says: string, source: Rule['source'], clauses: Clause[]): Rule {
  const union = (pick: (c: Clause) => string[]) => [...new Set(clauses.flatMap(pick))];
  return {
    id,
    says,
    source,
    checks: union((c) => c.checks),
    faults: union((c) => c.faults),
    clauses,
  };
}
