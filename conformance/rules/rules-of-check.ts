import type { Rule } from './rule.js';
import { ruleInventory } from './rule-inventory.js';

/** A check judging more rules than this points at none by itself: its name says more. */
const FEW_RULES = 3;

/**
 * The rule ids of the bundled contract that a failure of `check` on one operation points at:
 * the check's rules that name the operation (`METHOD /path`), else all of its rules when they
 * are few, else none (docs/conformance-rules.md lists every rule of a check).
 *
 * @example
 * contractRulesOf('delete_twice', 'DELETE', '/users/{id}'); // ['users.delete.204-then-404']
 */
export function contractRulesOf(check: string, method: string, path: string): string[] {
  const rules = rulesByCheck().get(check) ?? [];
  const naming = new RegExp(`\\b${method.toUpperCase()} ${escape(path)}(?![\\w/{}-])`);
  const named = rules.filter((rule) => naming.test(rule.says));
  if (named.length > 0) return named.map((rule) => rule.id);
  return rules.length <= FEW_RULES ? rules.map((rule) => rule.id) : [];
}

let byCheck: Map<string, Rule[]> | undefined;

function rulesByCheck(): Map<string, Rule[]> {
  if (byCheck) return byCheck;
  byCheck = new Map();
  for (const rule of ruleInventory.flatMap((area) => area.rules))
    for (const check of rule.checks) byCheck.set(check, [...(byCheck.get(check) ?? []), rule]);
  return byCheck;
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
